using System;

namespace Demo.App;

/// <summary>doc</summary>
[Serializable]
public class Greeter : IGreeter
{
    [Obsolete("x")]
    public void Hello() {}
    public void Hello(string name) {}
    public string Name { get; set; }
    public Greeter() {}
    public static Greeter operator +(Greeter a, Greeter b) => a;
    public event EventHandler Changed;
    public int this[int i] => i;
    void Local() { int Inner() => 1; }
}

public interface IGreeter { void Hello(); }
public record Person(string Name);
public struct S { public int X; }
public enum Color { Red }
public delegate void D(int x);
