import {Box, Text} from 'ink';
import {fit} from '../cell-text.js';
import {keymap, type Binding, type KeyContext} from '../keymap.js';
import {useTheme} from '../theme-context.js';
import {MoreLine} from './more-line.js';
import {Line} from './line.js';

export type HelpSection = {
	readonly title: Binding['section'];
	readonly entries: ReadonlyArray<{readonly keys: string; readonly description: string}>;
};

/** The help text, from the keymap: sections in first-seen order, one entry per command (its keys merged). */
export function helpSections(ascii: boolean, context: KeyContext = {}): HelpSection[] {
	const sections = new Map<Binding['section'], Map<string, {keys: string[]; description: string}>>();
	for (const b of keymap.filter(b => !b.only || context[b.only])) {
		const entries = sections.get(b.section) ?? new Map<string, {keys: string[]; description: string}>();
		sections.set(b.section, entries);
		const id = `${b.command}|${b.description}`;
		const label = ascii ? (b.asciiLabel ?? b.label) : b.label;
		const entry = entries.get(id);
		if (entry) {
			entry.keys.push(label);
		} else {
			entries.set(id, {keys: [label], description: b.description});
		}
	}

	return [...sections].map(([title, entries]) => ({
		title,
		entries: [...entries.values()].map(e => ({keys: e.keys.join(' '), description: e.description})),
	}));
}

type HelpLine = {readonly heading: string} | {readonly keys: string; readonly description: string};

function linesOf(sections: readonly HelpSection[]): HelpLine[] {
	return sections.flatMap(s => [{heading: s.title}, ...s.entries]);
}

/** Whole sections in one column, or split into two columns at the most even point. */
function columnsOf(sections: readonly HelpSection[], count: number): HelpLine[][] {
	if (count < 2 || sections.length < 2) {
		return [linesOf(sections)];
	}

	let best = 1;
	for (let split = 1; split < sections.length; split++) {
		const tallest = (k: number) => Math.max(linesOf(sections.slice(0, k)).length, linesOf(sections.slice(k)).length);
		if (tallest(split) < tallest(best)) {
			best = split;
		}
	}

	return [linesOf(sections.slice(0, best)), linesOf(sections.slice(best))];
}

const keysWidth = 14;
const columnWidth = 48;

type HelpLayout = {
	readonly columns: HelpLine[][];
	readonly count: number;
	/** Rows of help lines shown. */
	readonly visible: number;
	/** Lines scrolled off the top at most (0 when everything fits). */
	readonly maxScroll: number;
};

function helpLayout(height: number, width: number, ascii: boolean, context: KeyContext = {}): HelpLayout {
	const sections = helpSections(ascii, context);
	const room = Math.max(0, height - 1);
	const count = width >= columnWidth * 2 && linesOf(sections).length > room ? 2 : 1;
	const columns = columnsOf(sections, count);
	const tallest = Math.max(...columns.map(c => c.length));
	if (tallest <= room) {
		return {columns, count, visible: tallest, maxScroll: 0};
	}

	// One line above the window (what scrolled off, or how to scroll) and one below (what is left).
	const visible = Math.max(1, room - 2);
	return {columns, count, visible, maxScroll: Math.max(0, tallest - visible)};
}

/** How far the help can scroll at this size: the reducer clamps `helpScroll` to it. */
export function helpScrollMax(height: number, width: number, ascii: boolean, context: KeyContext = {}): number {
	return height <= 1 ? 0 : helpLayout(height, width, ascii, context).maxScroll;
}

/**
 * The `?` overlay: every key and what it does, in one or two columns. Taller than `height`, it scrolls
 * (`scroll` lines off the top) between a line that says how, or what is above, and one that says what is below.
 */
export function HelpOverlay({height, width, scroll = 0, context}: {
	readonly height: number;
	readonly width: number;
	readonly scroll?: number;
	readonly context?: KeyContext;
}) {
	const theme = useTheme();
	if (height <= 0) {
		return null;
	}

	const title = (
		<Line bold>
			KEYS <Text {...theme.style('muted')}>(? or esc closes)</Text>
		</Line>
	);
	if (height === 1) {
		return title;
	}

	const {columns, count, visible, maxScroll} = helpLayout(height, width, theme.ascii, context);
	const offset = Math.min(Math.max(0, scroll), maxScroll);
	const below = columns.reduce((n, c) => n + Math.max(0, c.length - offset - visible), 0);
	const render = (line: HelpLine, i: number) =>
		'heading' in line ? (
			<Line key={i} bold>
				{line.heading}
			</Line>
		) : (
			<Line key={i}>
				{'  '}
				<Text {...theme.style('accent')}>{fit(line.keys, keysWidth, theme.glyphs.ellipsis)}</Text> {line.description}
			</Line>
		);
	const scrollKeys = theme.ascii ? 'j/k, PgUp/PgDn' : '↑↓ j/k, PgUp/PgDn';
	return (
		<Box flexDirection="column" width={width}>
			{title}
			{maxScroll > 0 ? (
				offset > 0 ? (
					<MoreLine direction="above" count={offset} />
				) : (
					<Line {...theme.style('muted')}>
						{'  '}
						{scrollKeys} scroll
					</Line>
				)
			) : undefined}
			<Box>
				{columns.map((column, c) => (
					<Box key={c} flexDirection="column" width={Math.floor(width / count)}>
						{column.slice(offset, offset + visible).map((line, i) => render(line, i))}
					</Box>
				))}
			</Box>
			{maxScroll > 0 && below > 0 ? <MoreLine direction="below" count={below} /> : undefined}
		</Box>
	);
}
