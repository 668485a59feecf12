//! codex
