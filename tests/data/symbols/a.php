<?php
namespace App\Models;

use Foo\Bar;

/** doc */
#[Entity]
final class User extends Model implements HasName
{
    use Traits;
    const X = 1;

    #[Route("/x")]
    public function show(int $id): string { return ""; }

    public static function find($id) {}

    public function __construct() {}
}

interface HasName { public function name(): string; }
trait Greets { function greet() {} }
enum Suit: string { case H = 'h'; public function color() {} }
function helper() {}
$f = function () {};
$g = fn($x) => $x;
