/**
 * Columns a code point takes in a modern terminal, the way Ink measures text (string-width): zero for
 * combining marks and format characters, two for East Asian wide/fullwidth and emoji presentation, else one.
 */
const zeroWidth = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const emoji = /^\p{Emoji_Presentation}$/u;

/** East Asian Wide and Fullwidth blocks (UAX #11), coarse but covering every script a name could use. */
const wideRanges: ReadonlyArray<readonly [number, number]> = [
	[0x11_00, 0x11_5f],
	[0x23_29, 0x23_2a],
	[0x2e_80, 0x30_3e],
	[0x30_41, 0x33_ff],
	[0x34_00, 0x4d_bf],
	[0x4e_00, 0x9f_ff],
	[0xa0_00, 0xa4_cf],
	[0xa9_60, 0xa9_7f],
	[0xac_00, 0xd7_a3],
	[0xf9_00, 0xfa_ff],
	[0xfe_10, 0xfe_19],
	[0xfe_30, 0xfe_6f],
	[0xff_00, 0xff_60],
	[0xff_e0, 0xff_e6],
	[0x1_f3_00, 0x1_f6_4f],
	[0x1_f9_00, 0x1_f9_ff],
	[0x2_00_00, 0x3_ff_fd],
];

export function terminalWidth(codepoint: number): 0 | 1 | 2 {
	if (codepoint === 0 || codepoint < 0x20 || (codepoint >= 0x7f && codepoint < 0xa0)) {
		return 0;
	}

	if (codepoint < 0x03_00) {
		return 1;
	}

	const char = String.fromCodePoint(codepoint);
	if (zeroWidth.test(char)) {
		return 0;
	}

	if (emoji.test(char) || wideRanges.some(([from, to]) => codepoint >= from && codepoint <= to)) {
		return 2;
	}

	return 1;
}
