//! stub
/// stub
#[derive(Debug)]
pub struct MessageAccumulator;
