"""A small inventory module, quoted by the example documentation."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Item:
    """One kind of thing on the shelves."""

    name: str
    price_cents: int
    quantity: int = 0

    def value_cents(self) -> int:
        """What the items of this kind are worth together."""
        return self.price_cents * self.quantity


@dataclass
class Inventory:
    """All the items, by name."""

    items: dict[str, Item] = field(default_factory=dict)

    def add(self, item: Item) -> None:
        if item.name in self.items:
            self.items[item.name].quantity += item.quantity
        else:
            self.items[item.name] = item

    def total_cents(self) -> int:
        """The value of everything on the shelves."""
        return sum(item.value_cents() for item in self.items.values())

    def render(self) -> str:
        # '<' and '&' must reach the reader as text, never as markup
        rows = [f"<tr><td>{i.name}</td><td>{i.quantity} & more</td></tr>" for i in self.items.values()]
        return "<table>" + "".join(rows) + "</table>"
