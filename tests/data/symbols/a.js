/** doc */
export default class App extends Base {
  static create() {}
  #priv() {}
  get x() { return 1; }
  handler = () => {};
  @dec method() {}
}

function outer() {
  function inner() {}
  return inner;
}

export const fetchData = async (url) => {
  return url;
};

const Klass = class {};
module.exports.util = function () {};
let gen = function* () {};
export function* counter() {}
const obj = { method() {}, arrow: () => 1 };
