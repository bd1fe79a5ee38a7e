/**
 * An append-only `id<TAB>key...` mapping. Lines are parsed strictly so that writing them back
 * reproduces the committed text byte for byte; new keys get ids above the highest one.
 */
export class IdMapping {
  readonly #lines: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #file: string;
  #next = 1;
  added = 0;

  constructor(tsv: string, fields: number, file: string) {
    this.#file = file;
    const lines = tsv === "" ? [] : tsv.replace(/\n$/, "").split("\n");
    lines.forEach((line, index) => {
      const [idText = "", ...key] = line.split("\t");
      const id = Number(idText);
      if (!/^[1-9][0-9]*$/.test(idText) || key.length !== fields || key.some((part) => part === "")) {
        throw new Error(
          `${file} line ${index + 1}: expected an id and ${fields} non-empty fields: ${JSON.stringify(line)}`,
        );
      }
      if (id < this.#next)
        throw new Error(`${file} line ${index + 1}: id ${id} is not above the previous line's`);
      if (this.#ids.has(key.join("\t")))
        throw new Error(`${file} line ${index + 1}: ${key.join(" ")} is mapped twice`);
      this.#ids.set(key.join("\t"), id);
      this.#lines.push(line);
      this.#next = id + 1;
    });
  }

  idOf(key: string[]): number {
    const joined = key.join("\t");
    const known = this.#ids.get(joined);
    if (known !== undefined) return known;
    if (key.some((part) => part === "" || /[\t\n\r]/.test(part))) {
      throw new Error(`${this.#file}: ${JSON.stringify(key)} cannot be a mapping key`);
    }
    const id = this.#next++;
    this.#ids.set(joined, id);
    this.#lines.push(`${id}\t${joined}`);
    this.added++;
    return id;
  }

  /** Every mapped key, its fields joined by tabs. */
  knownKeys(): string[] {
    return [...this.#ids.keys()];
  }

  toTsv(): string {
    return this.#lines.map((line) => `${line}\n`).join("");
  }
}
