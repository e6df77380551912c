/**
 * Which version of the header line to draw: the header offers versions from the richest to the barest (with the
 * counts or without, the event age at the right or in the state or gone, a context's reasons or not) and draws the
 * first that fits in full; when none does, the first that fits once its names are cut to their floors, or gone with
 * their separators (fitParts then cuts them only as far as needed); else none (the header then leaves out its
 * timers rather than take two lines). The state words and the timers are in every version. Pure.
 */
import {displayWidth} from '../model/display-width.js';
import type {LinePart} from './cell-text.js';

export type HeaderVersion = {
	/** The left of the line, as fitParts takes it. `dropWith`: the part may go whole, and these cells with it (its separator). */
	readonly left: ReadonlyArray<LinePart & {readonly dropWith?: number}>;
	/** Cells of the right end (the timers); 0: none. Two cells keep it apart from the left. */
	readonly right: number;
};

/**
 * Cells of `version`: `whole`; `floor`, every part that may give way at its floor (its `min`, else its marker); `drop`,
 * the parts that may go whole (`dropWith`) gone with their separators.
 */
export function versionWidth(version: HeaderVersion, mode: 'whole' | 'floor' | 'drop', ellipsis = '…'): number {
	const left = version.left.reduce((sum, part) => {
		const whole = displayWidth(part.text);
		if (mode === 'whole' || part.giveWay === undefined) {
			return sum + whole;
		}

		if (mode === 'drop' && part.dropWith !== undefined) {
			return sum - part.dropWith;
		}

		return sum + Math.min(whole, part.min ?? part.keep ?? (part.mark === false ? 0 : displayWidth(ellipsis)));
	}, 0);
	return left + (version.right > 0 ? version.right + 2 : 0);
}

/**
 * Index in `versions` of the one to draw in `width` cells: the first that fits whole, else the first that fits with
 * its names at their floors, else with the names that may go gone; -1: none (the caller's last resort).
 */
export function pickHeaderVersion(versions: readonly HeaderVersion[], width: number, ellipsis = '…'): number {
	for (const mode of ['whole', 'floor', 'drop'] as const) {
		const at = versions.findIndex(v => versionWidth(v, mode, ellipsis) <= width);
		if (at !== -1) {
			return at;
		}
	}

	return -1;
}
