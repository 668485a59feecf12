//! sdks
