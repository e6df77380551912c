/**
 * Columns a code point takes in a modern terminal: the project's one width function (string-width, as Ink
 * measures text), per code point for the emulator. Zero for controls, combining marks and format characters,
 * two for East Asian wide/fullwidth and emoji presentation, else one.
 */
import {displayWidth} from '../../source/model/display-width.js';

export function terminalWidth(codepoint: number): 0 | 1 | 2 {
	if (codepoint < 0x20 || (codepoint >= 0x7f && codepoint < 0xa0)) {
		return 0;
	}

	return Math.min(2, displayWidth(String.fromCodePoint(codepoint))) as 0 | 1 | 2;
}
