package demo

import "fmt"

// Point is.
type Point struct {
	X int
}

type (
	A int
	Shape interface {
		Area() float64
	}
)

// Dist does.
func (p *Point) Dist() float64 { return 0 }

func (p Point[T]) Gen() {}

func New() *Point {
	return &Point{}
}

var handler = func(x int) int { return x }

const C = 1

func init() {}
func init() {}
