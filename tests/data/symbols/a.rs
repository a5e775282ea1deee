use std::fmt;

/// A point.
#[derive(Debug)]
/// more doc
#[repr(C)]
pub struct Point {
    x: i32,
}

impl Point {
    /// New.
    #[inline]
    pub fn new() -> Self { Point { x: 0 } }
}

impl<T: Clone> fmt::Display for Wrapper<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
}

pub trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> String { String::new() }
}

pub enum Color { Red }

macro_rules! m { () => {} }

const MAX: u32 = 1;
static S: u32 = 1;
type Alias = u32;

#[cfg(test)]
mod tests {
    #[test]
    fn it_works() {}
}

impl Shape for &Point {
    fn area(&self) -> f64 { 0.0 }
}
