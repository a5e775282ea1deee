import { x } from "y";

/** Doc comment. */
@Component({
  selector: "app",
})
export class AppComponent {
  @Input() name: string;
  private handler = (e: Event) => {
    return e;
  };

  constructor(private svc: Service) {}

  @HostListener("click")
  onClick(): void {}

  get value(): number { return 1; }

  greet(a: string): string;
  greet(a: number): string;
  greet(a: any): string {
    return a;
  }
}

export function parse(a: string): number;
export function parse(a: number): number;
export function parse(a: any): number {
  return 0;
}

export const make = async <T,>(x: T): Promise<T> => x;
export default function main() {}
interface Shape {
  area(): number;
  name: string;
}
type Fn = (a: number) => number;
export abstract class Base {
  abstract run(): void;
}
declare module "foo" {
  export function bar(): void;
}
export enum Color { Red, Green }
const obj = {
  method() {},
  arrow: () => 1,
};
