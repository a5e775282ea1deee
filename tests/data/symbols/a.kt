package demo

import kotlin.math.*

/** doc */
@Suppress("unused")
data class Point(val x: Int, val y: Int) {
    fun dist(): Double = 0.0

    companion object {
        @JvmStatic
        fun origin() = Point(0, 0)
    }
}

interface Shape {
    fun area(): Double
}

object Registry {
    fun register(s: Shape) {}
    fun register(s: String) {}
}

enum class Color { RED, GREEN }

fun String.shout(): String = uppercase()

val handler = { x: Int -> x }
val f = fun(x: Int): Int { return x }

sealed class Result {
    class Ok(val v: Int) : Result()
}

typealias Name = String
