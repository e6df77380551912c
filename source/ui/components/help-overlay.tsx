import {Box, Text} from 'ink';
import {fit} from '../cell-text.js';
import {keymap, type Binding, type KeyContext} from '../keymap.js';
import {useTheme} from '../theme-context.js';
import {MoreLine} from './more-line.js';
import {Line} from './line.js';

export type HelpSection = {readonly title: Binding['section']; readonly entries: ReadonlyArray<{readonly keys: string; readonly description: string}>};

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

/** The `?` overlay: every key and what it does, in one or two columns, cut to `height`. */
export function HelpOverlay({height, width, context}: {readonly height: number; readonly width: number; readonly context?: KeyContext}) {
	const theme = useTheme();
	if (height <= 0) {
		return null;
	}

	const sections = helpSections(theme.ascii, context);
	const room = height - 1;
	if (room === 0) {
		return (
			<Line bold>
				KEYS <Text {...theme.style('muted')}>(? or esc closes)</Text>
			</Line>
		);
	}

	const count = width >= columnWidth * 2 && linesOf(sections).length > room ? 2 : 1;
	const columns = columnsOf(sections, count);
	const tallest = Math.max(...columns.map(c => c.length));
	const fits = tallest <= room;
	const visible = fits ? tallest : Math.max(0, room - 1);
	const hidden = columns.reduce((n, c) => n + Math.max(0, c.length - visible), 0);
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
	return (
		<Box flexDirection="column" width={width}>
			<Line bold>
				KEYS <Text {...theme.style('muted')}>(? or esc closes)</Text>
			</Line>
			<Box>
				{columns.map((column, c) => (
					// eslint-disable-next-line react/no-array-index-key
					<Box key={c} flexDirection="column" width={Math.floor(width / count)}>
						{column.slice(0, visible).map((line, i) => render(line, i))}
					</Box>
				))}
			</Box>
			{hidden > 0 ? <MoreLine direction="below" count={hidden} /> : undefined}
		</Box>
	);
}
