import Foundation

/// A point.
@available(iOS 13, *)
struct Point {
    var x: Int

    init(x: Int) {
        self.x = x
    }

    init(y: Int) { self.x = y }

    func dist() -> Double { 0 }

    @discardableResult
    mutating func move(by d: Int) -> Int { x += d; return x }

    var norm: Double {
        return 0
    }

    subscript(i: Int) -> Int { return i }

    deinit {}
}

protocol Shape {
    func area() -> Double
}

enum Color {
    case red
    func name() -> String { "" }
}

extension Point: Shape {
    func area() -> Double { 0 }
}

actor Counter {
    func inc() {}
}

@MainActor
final class ViewModel: ObservableObject {
    func load() async throws {}
}

func free(a: Int) -> Int { a }
func free(a: String) -> Int { 0 }
typealias Name = String
