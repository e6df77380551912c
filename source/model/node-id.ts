/**
 * Node ids: `plan:deploy/phase:deploy/step:init`. A segment is `<kind>:<name>`; `%`, `/` and `#` in names are
 * percent-escaped so an id always splits back into its segments, and a repeated name among siblings gets `#2`,
 * `#3`… so ids stay unique (React keys, fold state and timers hang on them).
 */

export function escapeIdName(name: string): string {
	return name.replaceAll('%', '%25').replaceAll('/', '%2F').replaceAll('#', '%23');
}

/** Builds the ids of one level of siblings under `parent` ('' for top-level nodes). */
export class SiblingIds {
	/** kind → name → siblings of that kind and name so far. */
	readonly #seen = new Map<string, Map<string, number>>();

	constructor(readonly parent: string) {}

	next(kind: string, name: string): string {
		return this.#id(kind, name, this.#count(kind, name));
	}

	#count(kind: string, name: string): number {
		let names = this.#seen.get(kind);
		if (!names) {
			names = new Map();
			this.#seen.set(kind, names);
		}

		const n = (names.get(name) ?? 0) + 1;
		names.set(name, n);
		return n;
	}

	#id(kind: string, name: string, n: number): string {
		const segment = `${kind}:${escapeIdName(name)}`;
		const unique = n === 1 ? segment : `${segment}#${n}`;
		return this.parent ? `${this.parent}/${unique}` : unique;
	}
}
