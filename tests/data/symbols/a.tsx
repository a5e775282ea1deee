import React from "react";

interface Props { name: string }

export function Hello({ name }: Props) {
  return <div>{name}</div>;
}

export const App: React.FC<Props> = (props) => {
  return <Hello name={props.name} />;
};

export default class Old extends React.Component<Props> {
  render() { return <div/>; }
}
