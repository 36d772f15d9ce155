/** Materialised path of a node: its parent's path plus its own id ("/1/5/" + 12 → "/1/5/12/"). */
export function childPath(parentPath: string | null | undefined, id: number): string {
  return `${parentPath ?? '/'}${id}/`;
}
