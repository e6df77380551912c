/**
 * Which version of the header line to draw: the header offers versions from the richest to the barest (with the
 * counts or without, the event age at the right or in the state or gone, a context's reasons or not) and draws the
 * first that fits in full; when none does, the first that fits once its names are cut, at most to their markers
 * (fitParts then cuts them only as far as needed); else none (the header then leaves out its timers rather than take two lines).
 * The state words and the timers are in every version. Pure.
 */
import {displayWidth} from '../model/display-width.js';
import type {LinePart} from './cell-text.js';

export type HeaderVersion = {
	/** The left of the line, as fitParts takes it. */
	readonly left: readonly LinePart[];
	/** Cells of the right end (the timers); 0: none. Two cells keep it apart from the left. */
	readonly right: number;
};

/** Cells of `version` whole (`cut: false`) or with every part that may give way cut to its marker. */
export function versionWidth(version: HeaderVersion, cut: boolean, ellipsis = '…'): number {
	const left = version.left.reduce((sum, part) => {
		const whole = displayWidth(part.text);
		if (!cut || part.giveWay === undefined) {
			return sum + whole;
		}

		// fitParts' floor before parts go altogether: each part that gives way keeps its marker (or its `keep`).
		return sum + Math.min(whole, part.keep ?? (part.mark === false ? 0 : displayWidth(ellipsis)));
	}, 0);
	return left + (version.right > 0 ? version.right + 2 : 0);
}

/** Index in `versions` of the one to draw in `width` cells; -1: none fits even cut (the caller's last resort). */
export function pickHeaderVersion(versions: readonly HeaderVersion[], width: number, ellipsis = '…'): number {
	const whole = versions.findIndex(v => versionWidth(v, false, ellipsis) <= width);
	if (whole !== -1) {
		return whole;
	}

	const cut = versions.findIndex(v => versionWidth(v, true, ellipsis) <= width);
	return cut;
}
