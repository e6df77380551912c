import {isForbiddenCodePoint} from '../../source/model/sanitize.js';

/** Every string anywhere inside `value` (object keys included), with its path. */
export function allStrings(value: unknown, path = '$'): Array<{path: string; text: string}> {
	if (typeof value === 'string') {
		return [{path, text: value}];
	}

	if (Array.isArray(value)) {
		return value.flatMap((v, i) => allStrings(v, `${path}[${i}]`));
	}

	if (typeof value === 'object' && value !== null) {
		return Object.entries(value).flatMap(([k, v]) => [{path: `${path} (key)`, text: k}, ...allStrings(v, `${path}.${k}`)]);
	}

	return [];
}

/** Strings that still hold a character the sanitizer must have removed (newlines included: adapters emit one-line text). */
export function uncleanStrings(value: unknown): Array<{path: string; text: string}> {
	return allStrings(value).filter(({text}) => [...text].some(ch => {
		const cp = ch.codePointAt(0)!;
		return isForbiddenCodePoint(cp) || cp === 0x0a || cp === 0x09 || cp === 0x2028 || cp === 0x2029;
	}));
}
