package demo;

import java.util.*;

/** doc */
@Entity
@Table(name = "x")
public class A<T> extends B {
    @Id
    private Long id;

    public A() {}

    @Override
    public String toString() { return ""; }

    public void m(int x) {}
    public void m(String x) {}

    static class Inner {
        void run() {}
    }

    interface Cb { void call(); }

    enum E { X; void f() {} }

    record R(int x) {}

    private final Runnable r = () -> {};
}

@interface Marker {}
