/**
 * Whether two adapted records (objects, plan nodes) hold the same own fields but those skipped: values by `===`,
 * objects (wait facts, step counts, a node's outputs) by their JSON, which is bounded (sanitized, adapted data). A
 * field added later is compared without a change here. Pure.
 */
export function sameFieldsExcept(a: object, b: object, skip: ReadonlySet<string>): boolean {
	const left = a as Readonly<Record<string, unknown>>;
	const right = b as Readonly<Record<string, unknown>>;
	let count = 0;
	for (const name in left) {
		if (skip.has(name) || !Object.hasOwn(left, name)) {
			continue;
		}

		count++;
		const x = left[name];
		const y = right[name];
		const objects = typeof x === 'object' && typeof y === 'object' && x !== null && y !== null;
		if (x !== y && (!objects || JSON.stringify(x) !== JSON.stringify(y))) {
			return false;
		}
	}

	for (const name in right) {
		if (!skip.has(name) && Object.hasOwn(right, name)) {
			count--;
		}
	}

	return count === 0;
}
