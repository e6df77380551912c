/**
 * "Did you mean …?" for a mistyped word (a subcommand, a kind, a flag), as Cobra suggests commands: the known
 * words within a small edit distance of the typed one, or that it is a prefix of. Pure.
 */

/** Edit distance with adjacent transpositions counted as one edit (`replya` → `replay` is 1), case-insensitive. */
export function editDistance(a: string, b: string): number {
	const s = a.toLowerCase();
	const t = b.toLowerCase();
	// Rows of the optimal-string-alignment table: two back are needed for a transposition.
	let before: number[] = [];
	let previous = Array.from({length: t.length + 1}, (_, j) => j);
	for (let i = 1; i <= s.length; i++) {
		const row = [i];
		for (let j = 1; j <= t.length; j++) {
			const cost = s[i - 1] === t[j - 1] ? 0 : 1;
			let best = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
			if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
				best = Math.min(best, before[j - 2]! + 1);
			}

			row.push(best);
		}

		before = previous;
		previous = row;
	}

	return previous[t.length]!;
}

/** Longer input is not compared (a pasted paragraph is no typo of a flag). */
const maxComparedLength = 64;

/**
 * The known words the typed one probably meant (the closest; at most three): within 2 edits (1 for words of up to
 * 4 letters, so `as` does not suggest everything short), or starting with it (`repl` → `replay`, counted as 1).
 */
export function suggestions(typed: string, known: readonly string[]): string[] {
	if (typed === '' || typed.length > maxComparedLength) {
		return [];
	}

	const limit = typed.length <= 4 ? 1 : 2;
	const scored = known.flatMap(word => {
		if (word.toLowerCase() === typed.toLowerCase()) {
			return [];
		}

		const distance = editDistance(typed, word);
		const prefix = typed.length >= 2 && word.toLowerCase().startsWith(typed.toLowerCase());
		return distance <= limit || prefix ? [{word, distance: prefix ? Math.min(distance, 1) : distance}] : [];
	});
	const closest = Math.min(...scored.map(s => s.distance));
	return [...new Set(scored.filter(s => s.distance === closest).map(s => s.word).sort())].slice(0, 3);
}

/** `: did you mean replay?`, `: did you mean a or b?`, or '' when nothing is close. */
export function didYouMean(typed: string, known: readonly string[], show: (word: string) => string = word => word): string {
	const found = suggestions(typed, known).map(w => show(w));
	if (found.length === 0) {
		return '';
	}

	const list = found.length === 1 ? found[0]! : `${found.slice(0, -1).join(', ')} or ${found.at(-1)!}`;
	return `: did you mean ${list}?`;
}
