/**
 * A captured terminal screen → an SVG picture of a terminal window: one `<text>` per run of equally styled
 * cells, placed by column so the grid holds whatever monospace font the viewer has (runs carry `textLength`,
 * symbols sit centred in their own cells). Output depends only on the screen and the palette: byte-identical
 * for identical input.
 */
import type {Cell, CellColor, Screen} from './capture.js';

export type Palette = {
	readonly name: 'dark' | 'light';
	readonly background: string;
	readonly foreground: string;
	/** The 16 ANSI colours: black, red, green, yellow, blue, magenta, cyan, white, then the bright ones. */
	readonly ansi: readonly string[];
	/** Window border and the title text. */
	readonly border: string;
	readonly title: string;
};

/** GitHub's dark terminal colours. */
export const dark: Palette = {
	name: 'dark',
	background: '#0d1117',
	foreground: '#c9d1d9',
	ansi: [
		'#484f58', '#ff7b72', '#3fb950', '#d29922', '#58a6ff', '#bc8cff', '#39c5cf', '#b1bac4', '#6e7681', '#ffa198', '#56d364', '#e3b341',
		'#79c0ff', '#d2a8ff', '#56d4dd', '#f0f6fc',
	],
	border: '#30363d',
	title: '#8b949e',
};

/** GitHub's light terminal colours, yellow and cyan darkened to read on white. */
export const light: Palette = {
	name: 'light',
	background: '#ffffff',
	foreground: '#1f2328',
	ansi: [
		'#24292f', '#cf222e', '#1a7f37', '#9a6700', '#0969da', '#8250df', '#1b7c83', '#6e7781', '#57606a', '#a40e26', '#2da44e', '#bf8700',
		'#218bff', '#a475f9', '#3192aa', '#8c959f',
	],
	border: '#d0d7de',
	title: '#656d76',
};

const fontSize = 14;
const cellWidth = 8.4;
const lineHeight = 18;
const padding = 14;
const titleBar = 30;
const fontFamily = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Liberation Mono', monospace";

const num = (n: number): string => String(Math.round(n * 100) / 100);

function escapeXml(text: string): string {
	return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/** xterm's 256-colour palette beyond the first 16: a 6×6×6 cube, then 24 greys. */
function color256(index: number, palette: Palette): string {
	if (index < 16) {
		return palette.ansi[index]!;
	}

	if (index < 232) {
		const steps = [0, 95, 135, 175, 215, 255];
		const i = index - 16;
		return hex([steps[Math.floor(i / 36)]!, steps[Math.floor(i / 6) % 6]!, steps[i % 6]!]);
	}

	const grey = 8 + (10 * (index - 232));
	return hex([grey, grey, grey]);
}

function hex(rgb: readonly number[]): string {
	return `#${rgb.map(c => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function parseHex(color: string): number[] {
	return [1, 3, 5].map(i => Number.parseInt(color.slice(i, i + 2), 16));
}

/** Dim (SGR 2) as terminals draw it: the colour halfway to the background. */
function mix(color: string, toward: string, amount: number): string {
	const a = parseHex(color);
	const b = parseHex(toward);
	return hex(a.map((c, i) => c + ((b[i]! - c) * amount)));
}

function resolve(color: CellColor, fallback: string, palette: Palette): string {
	switch (color.mode) {
		case 'default': {
			return fallback;
		}

		case 'palette': {
			return color256(color.index, palette);
		}

		case 'rgb': {
			return hex([(color.rgb >> 16) & 0xff, (color.rgb >> 8) & 0xff, color.rgb & 0xff]);
		}
	}
}

type Look = {
	readonly fg: string;
	readonly bg: string | undefined;
	readonly bold: boolean;
	readonly italic: boolean;
	readonly underline: boolean;
};

function lookOf(cell: Cell, palette: Palette): Look {
	let fg = resolve(cell.fg, palette.foreground, palette);
	let bg = cell.bg.mode === 'default' ? undefined : resolve(cell.bg, palette.background, palette);
	if (cell.inverse) {
		[fg, bg] = [bg ?? palette.background, fg];
	}

	if (cell.dim) {
		fg = mix(fg, bg ?? palette.background, 0.45);
	}

	return {fg, bg, bold: cell.bold, italic: cell.italic, underline: cell.underline};
}

/** Rows up to the last one with anything on it: a screenshot of the frame, not of the empty terminal below. */
export function usedRows(screen: Screen): number {
	let last = 0;
	for (const [y, cells] of screen.lines.entries()) {
		if (cells.some(c => (c.chars !== ' ' && c.chars !== '') || c.bg.mode !== 'default' || c.inverse)) {
			last = y + 1;
		}
	}

	return last;
}

/** CSS classes for text styles, numbered in order of first use. */
class Styles {
	readonly #classes = new Map<string, string>();

	classOf(look: Look): string {
		const rule = [
			`fill:${look.fg}`,
			look.bold ? 'font-weight:bold' : '',
			look.italic ? 'font-style:italic' : '',
			look.underline ? 'text-decoration:underline' : '',
		]
			.filter(Boolean)
			.join(';');
		let name = this.#classes.get(rule);
		if (!name) {
			name = `s${this.#classes.size}`;
			this.#classes.set(rule, name);
		}

		return name;
	}

	css(): string {
		return [...this.#classes].map(([rule, name]) => `.${name}{${rule}}`).join('');
	}
}

const isPlain = (chars: string): boolean => /^[\u0020-\u007E]$/.test(chars);

/** The SVG elements of one screen (backgrounds, then text), `top` pixels down. */
function screenBody(screen: Screen, rows: number, palette: Palette, styles: Styles, top: number): string[] {
	const out: string[] = [];
	const baseline = top + (lineHeight * 0.75);
	for (let y = 0; y < rows; y++) {
		const cells = screen.lines[y] ?? [];
		const looks = cells.map(c => lookOf(c, palette));
		const rowTop = top + (y * lineHeight);
		// Backgrounds: merged runs of one colour.
		for (let x = 0; x < cells.length;) {
			const bg = looks[x]!.bg;
			let end = x + 1;
			while (end < cells.length && looks[end]!.bg === bg) {
				end++;
			}

			if (bg) {
				out.push(`<rect x="${num(padding + (x * cellWidth))}" y="${num(rowTop)}" width="${num((end - x) * cellWidth)}" ` +
					`height="${lineHeight}" fill="${bg}"/>`);
			}

			x = end;
		}

		// Text: runs of printable ASCII in one style (split at wider gaps), and every other glyph on its own.
		const textY = num(baseline + (y * lineHeight));
		for (let x = 0; x < cells.length;) {
			const cell = cells[x]!;
			const look = looks[x]!;
			if (cell.width === 0 || cell.chars === ' ' || cell.chars === '') {
				x++;
				continue;
			}

			const cls = styles.classOf(look);
			if (!isPlain(cell.chars)) {
				const center = padding + ((x + (cell.width / 2)) * cellWidth);
				out.push(`<text x="${num(center)}" y="${textY}" class="${cls}" text-anchor="middle">${escapeXml(cell.chars)}</text>`);
				x += Math.max(1, cell.width);
				continue;
			}

			let end = x + 1;
			while (end < cells.length) {
				const next = cells[end]!;
				if (!isPlain(next.chars) || styles.classOf(looks[end]!) !== cls) {
					break;
				}

				if (next.chars === ' ' && (end + 1 >= cells.length || cells[end + 1]!.chars === ' ')) {
					break;
				}

				end++;
			}

			while (cells[end - 1]!.chars === ' ') {
				end--;
			}

			const text = cells.slice(x, end).map(c => c.chars).join('');
			const length = end - x > 1 ? ` textLength="${num((end - x) * cellWidth)}"` : '';
			out.push(`<text x="${num(padding + (x * cellWidth))}" y="${textY}" class="${cls}"${length}>${escapeXml(text)}</text>`);
			x = end;
		}
	}

	return out;
}

function frame(width: number, height: number, palette: Palette, title: string): string[] {
	const dots = ['#ff5f57', '#febc2e', '#28c840'].map((fill, i) =>
		`<circle cx="${padding + 6 + (i * 20)}" cy="${titleBar / 2}" r="6" fill="${fill}"/>`);
	return [
		`<rect x="0.5" y="0.5" width="${num(width - 1)}" height="${num(height - 1)}" rx="8" fill="${palette.background}" ` +
		`stroke="${palette.border}"/>`,
		...dots,
		`<text x="${num(width / 2)}" y="${num((titleBar / 2) + 4.5)}" text-anchor="middle" class="title">${escapeXml(title)}</text>`,
	];
}

export type SvgOptions = {
	/** In the window's title bar. */
	readonly title: string;
	/** Rows to show; default: up to the last row with content. */
	readonly rows?: number;
};

function document(
	screens: readonly Screen[],
	palette: Palette,
	options: SvgOptions,
	body: (styles: Styles, rows: number) => string[],
	extraCss = '',
): string {
	const first = screens[0]!;
	const rows = options.rows ?? Math.min(first.rows, Math.max(...screens.map(s => usedRows(s))));
	const width = (padding * 2) + (first.columns * cellWidth);
	const height = titleBar + (rows * lineHeight) + padding;
	const styles = new Styles();
	const content = body(styles, rows);
	const css = `text{font-family:${fontFamily};font-size:${fontSize}px}.title{fill:${palette.title}` +
		`;font-size:12px}${styles.css()}${extraCss}`;
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" role="img" aria-label="${escapeXml(options.title)}">`,
		`<style>${css}</style>`,
		...frame(width, height, palette, options.title),
		...content,
		'</svg>',
		'',
	].join('\n');
}

/** One screen as a terminal-window SVG. */
export function screenToSvg(screen: Screen, palette: Palette, options: SvgOptions): string {
	return document([screen], palette, options, (styles, rows) => screenBody(screen, rows, palette, styles, titleBar));
}

/**
 * Several screens shown in turn, `frameMs` each, forever (CSS keyframes: every frame is visible for its slice
 * of the cycle). Without animation support, or with reduced motion asked for, the first frame stays.
 */
export function animatedSvg(screens: readonly Screen[], palette: Palette, options: SvgOptions & {readonly frameMs: number}): string {
	const total = screens.length * options.frameMs;
	const slice = num(100 / screens.length);
	const css = `.f{visibility:hidden;animation:show ${total}ms infinite}.f0{visibility:visible}@keyframes ` +
		`show{0%{visibility:visible}${slice}%{visibility:hidden}100%{visibility:hidden}}@media ` +
		'(prefers-reduced-motion:reduce){.f{animation:none}}';
	return document(
		screens,
		palette,
		options,
		(styles, rows) =>
			screens.flatMap((screen, i) => [
				`<g class="f f${i}"${i === 0 ? '' : ` style="animation-delay:${i * options.frameMs}ms"`}>`,
				...screenBody(screen, rows, palette, styles, titleBar),
				'</g>',
			]),
		css,
	);
}
