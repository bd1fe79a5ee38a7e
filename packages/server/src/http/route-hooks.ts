/** A route's own hooks of one kind, as its options hold them (one, several or none), as a list. */
export function hooksOf<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
