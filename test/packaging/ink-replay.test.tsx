/**
 * The patched Ink output stage replays what did not change (patches/ink+8.0.0.patch): a subtree no DOM change
 * reached since its last output (build/dom.js `markOutputDirty`), laid out at the same size, gives the same
 * operations, moved when only its position changed (build/render-node-to-output.js); a replayed write under the
 * same clip is not clipped or transformed again, and a row with the pieces of the same row of the last frame is
 * that row (build/output.js). A commit walks the tree for a <Static> only once one was created
 * (build/reconciler.js). All of it must only ever save work: every frame equals a fresh render of the same tree.
 */
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {Box, Static, Text, Transform} from 'ink';
import {render} from 'ink-testing-library';
import {memo, useState, type ReactElement} from 'react';
import {afterEach, describe, expect, test, vi} from 'vitest';
import stringWidth from 'string-width';
import {seededRandom} from '../helpers/random-strings.js';

const root = path.resolve(import.meta.dirname, '../..');
type YogaNode = {getComputedLeft(): number; getComputedTop(): number; getComputedWidth(): number; getComputedHeight(): number; getDisplay(): number};
type DomNode = {readonly nodeName: string; readonly childNodes?: readonly DomNode[]; yogaNode?: YogaNode};
// Ink exports only its entry point: its modules are loaded by their files.
const {default: instances} = (await import(pathToFileURL(path.join(root, 'node_modules/ink/build/instances.js')).href)) as {
	default: WeakMap<object, {rootNode: DomNode}>;
};
type RowBuilder = {
	width: number;
	caches: unknown;
	renderRow(pieces: unknown[]): string;
	renderRuns(pieces: unknown[]): string | undefined;
	renderWholeLines(pieces: unknown[]): string | undefined;
	renderOwnedRuns(pieces: unknown[]): string | undefined;
	renderCells(pieces: unknown[]): string;
};
type NarrowLine = {readonly styles: readonly unknown[]; readonly plain: string; readonly offsets: Int32Array; readonly body: string} | null;
const {outputCaches, default: Output} = (await import(pathToFileURL(path.join(root, 'node_modules/ink/build/output.js')).href)) as {
	outputCaches: {
		getRow(width: number, pieces: unknown[], render: () => string): string;
		simpleNarrowLine(line: string): NarrowLine | undefined;
		narrowLineOf(chars: unknown[]): NarrowLine;
		getStyledChars(line: string): unknown[];
		getLines(text: string): string[];
		getNarrowLine(line: string): NarrowLine;
		simpleWidth(text: string): number | undefined;
		getStringWidth(text: string): number;
	};
	default: new (options: {width: number; height: number}) => RowBuilder;
};

afterEach(() => {
	vi.restoreAllMocks();
});

/** Counts the Yoga position reads of every node under `node` (itself excluded) from now on. */
function countReads(node: DomNode): () => number {
	let count = 0;
	const visit = (n: DomNode): void => {
		for (const child of n.childNodes ?? []) {
			const yoga = child.yogaNode;
			if (yoga) {
				const read = yoga.getComputedLeft.bind(yoga);
				yoga.getComputedLeft = () => {
					count++;
					return read();
				};
			}

			visit(child);
		}
	};

	visit(node);
	return () => count;
}

/** Counts every read of a node's layout (position, size, display) under `node` (itself excluded) from now on. */
function countLayoutReads(node: DomNode): () => number {
	let count = 0;
	const getters = ['getComputedLeft', 'getComputedTop', 'getComputedWidth', 'getComputedHeight', 'getDisplay'] as const;
	const visit = (n: DomNode): void => {
		for (const child of n.childNodes ?? []) {
			const yoga = child.yogaNode;
			for (const getter of yoga ? getters : []) {
				const read = yoga![getter].bind(yoga);
				yoga![getter] = () => {
					count++;
					return read();
				};
			}

			visit(child);
		}
	};

	visit(node);
	return () => count;
}

/** The row boxes of a `<Box flexDirection="column">` list rendered as the root's only child. */
function rowsOf(shown: ReturnType<typeof render>): readonly DomNode[] {
	const list = instances.get(shown.stdout)!.rootNode.childNodes![0]!;
	return list.childNodes!;
}

/** A row: a memo component, as an app's rows are (a re-rendered <Text> has a new transform, so it draws again). */
const Row = memo(function Row({text, index, transform}: {readonly text: string; readonly index: number; readonly transform?: (line: string) => string}) {
	return (
		<Box width={40}>
			<Text color="green">● </Text>
			<Text>{text}</Text>
			<Box position="absolute" left={30}>
				{transform ? <Transform transform={transform}><Text>{`t${index}`}</Text></Transform> : <Text>{`t${index}`}</Text>}
			</Box>
		</Box>
	);
});

type ListProps = {readonly rows: readonly string[]; readonly transform?: (line: string) => string; readonly keyed?: boolean};

function List({rows, transform, keyed}: ListProps) {
	return (
		<Box flexDirection="column" width={40}>
			{rows.map((text, index) => (
				// Unless keyed, rows are positions here.
				<Row key={keyed ? text : index} text={text} index={keyed ? rows.length - 1 - index : index} {...(transform ? {transform} : {})} />
			))}
		</Box>
	);
}

/**
 * The list, changed from inside as an app changes (a state update): a `rerender` from outside renders Ink's own
 * App again, whose contexts then render every <Text> again.
 */
function driven(props: ListProps) {
	let set: (rows: readonly string[]) => void = () => undefined;
	function Driven() {
		const [rows, setRows] = useState(props.rows);
		set = setRows;
		return <List {...props} rows={rows} />;
	}

	const shown = render(<Driven />);
	return {
		shown,
		async change(rows: readonly string[]) {
			set(rows);
			await new Promise(resolve => {
				setImmediate(resolve);
			});
		},
	};
}

const rows = Array.from({length: 30}, (_, index) => `row ${index}`);

describe('replaying what did not change', () => {
	test('a change to one row reads the layout of that row alone, and the frame equals a fresh render', async () => {
		const {shown, change} = driven({rows});
		const reads = rowsOf(shown).map(row => countReads(row));
		const changed = rows.with(7, 'row seven, longer now');
		await change(changed);
		const counts = reads.map(read => read());
		expect(counts[7]).toBeGreaterThan(0);
		expect(counts.filter((count, index) => index !== 7 && count > 0)).toEqual([]);
		const frame = shown.lastFrame();
		shown.unmount();
		const fresh = render(<List rows={changed} />);
		expect(frame).toBe(fresh.lastFrame());
		fresh.unmount();
	});

	test('a frame whose layout did not run reads no layout from Yoga; after one that ran, the layout is read again', async () => {
		const {shown, change} = driven({rows});
		const reads = countLayoutReads(instances.get(shown.stdout)!.rootNode);
		// As wide as before: the text is measured, its size is the same, Yoga lays nothing out.
		await change(rows.with(7, 'row x'));
		expect(shown.lastFrame()).toContain('row x');
		expect(reads()).toBe(0);
		const longer = rows.with(7, 'row seven, longer now');
		await change(longer);
		expect(reads()).toBeGreaterThan(0);
		const frame = shown.lastFrame();
		shown.unmount();
		const fresh = render(<List rows={longer} />);
		expect(frame).toBe(fresh.lastFrame());
		fresh.unmount();
	});

	test('rows that only moved are drawn where they are now from what they drew before, without reading their layout', async () => {
		const {shown, change} = driven({rows, keyed: true});
		const reads = rowsOf(shown).map(row => countReads(row));
		// A row inserted above every other: all of them move down by one.
		const moved = ['new first row', ...rows];
		await change(moved);
		expect(reads.map(read => read()).filter(count => count > 0)).toEqual([]);
		const frame = shown.lastFrame();
		shown.unmount();
		const fresh = render(<List keyed rows={moved} />);
		expect(frame).toBe(fresh.lastFrame());
		expect(frame).toContain('t0');
		fresh.unmount();
	});

	test('a write replayed under the same clip is not transformed again', async () => {
		const transform = vi.fn((line: string) => line.toUpperCase());
		const {shown, change} = driven({rows, transform});
		transform.mockClear();
		await change(rows.with(3, 'row three'));
		// The changed row draws again (its <Text>s render again); the other 29 rows' writes are not transformed again.
		expect(transform).toHaveBeenCalledTimes(1);
		expect(transform).toHaveBeenCalledWith('t3', 0);
		expect(shown.lastFrame()).toContain('T3');
		shown.unmount();
	});

	test('a row with the pieces of the same row of the last frame is not looked up again', async () => {
		const {shown, change} = driven({rows});
		const getRow = vi.spyOn(outputCaches, 'getRow');
		await change(rows.with(12, 'row twelve'));
		expect(getRow).toHaveBeenCalledTimes(1);
		expect(shown.lastFrame()).toContain('row twelve');
		shown.unmount();
	});

	test('a text changed by a component of its own inside a <Text> (a timer) draws its new value', async () => {
		let tick: (seconds: number) => void = () => undefined;
		function Seconds() {
			const [seconds, setSeconds] = useState(0);
			tick = setSeconds;
			return `${seconds}s`;
		}

		const Timer = memo(function Timer() {
			return (
				<Box width={20}>
					<Text>elapsed <Seconds /></Text>
				</Box>
			);
		});
		const shown = render(<Box flexDirection="column"><Text>above</Text><Timer /></Box>);
		expect(shown.lastFrame()).toContain('elapsed 0s');
		tick(5);
		await new Promise(resolve => {
			setImmediate(resolve);
		});
		expect(shown.lastFrame()).toContain('elapsed 5s');
		shown.unmount();
	});

	test('a write replayed under a clip that changed is clipped anew', async () => {
		let clip: (clipped: boolean) => void = () => undefined;
		function Clipped() {
			const [clipped, setClipped] = useState(false);
			clip = setClipped;
			return (
				<Box flexDirection="column" width={40}>
					<Box width={20} overflow={clipped ? 'hidden' : 'visible'}>
						<Overlay text="outside" left={25} />
						<Text>inside</Text>
					</Box>
				</Box>
			);
		}

		const shown = render(<Clipped />);
		expect(shown.lastFrame()).toContain('[outside]');
		clip(true);
		await new Promise(resolve => {
			setImmediate(resolve);
		});
		expect(shown.lastFrame()).not.toContain('outside');
		expect(shown.lastFrame()).toContain('inside');
		shown.unmount();
	});

	test('a <Static> that appears after the first commits is still drawn', () => {
		function Tree({items}: {readonly items: readonly string[]}) {
			return (
				<Box flexDirection="column">
					{items.length > 0 ? <Static items={[...items]}>{item => <Text key={item}>{item}</Text>}</Static> : undefined}
					<Text>live</Text>
				</Box>
			);
		}

		const shown = render(<Tree items={[]} />);
		shown.rerender(<Tree items={['done: first']} />);
		expect(shown.frames.join('\n')).toContain('done: first');
		shown.unmount();
	});
});

type RowModel = {readonly key: number; readonly text: string; readonly color?: string; readonly hidden: boolean; readonly overlay?: string; readonly clip: boolean; readonly indent: number};
type Model = {readonly width: number; readonly rows: readonly RowModel[]};

/** A row: memo, so a change to another row renders nothing of it (what the replay is for). */
const RandomRow = memo(function RandomRow({row, width}: {readonly row: RowModel; readonly width: number}) {
	return (
		<Box display={row.hidden ? 'none' : 'flex'} paddingLeft={row.indent} overflow={row.clip ? 'hidden' : 'visible'} width={row.clip ? 12 : undefined}>
			<Text {...(row.color ? {color: row.color} : {})} wrap="truncate-end">{row.text}</Text>
			{row.overlay === undefined ? undefined : <Overlay text={row.overlay} left={Math.max(0, width - 6)} />}
		</Box>
	);
});

/** Memo too: a row that starts or stops clipping does not render its overlay again, whose writes then replay. */
const Overlay = memo(function Overlay({text, left}: {readonly text: string; readonly left: number}) {
	return (
		<Box position="absolute" left={left}>
			<Transform transform={overlay}>
				<Text>{text}</Text>
			</Transform>
		</Box>
	);
});

const overlay = (line: string) => `[${line}]`;

function RandomTree({model}: {readonly model: Model}) {
	return (
		<Box flexDirection="column" width={model.width}>
			<Text bold>header {model.rows.length}</Text>
			{model.rows.map(row => <RandomRow key={row.key} row={row} width={model.width} />)}
			<Text dimColor>footer</Text>
		</Box>
	);
}

describe('random changes', () => {
	test('every frame equals a fresh render of the same tree (12 seeds × 40 changes, made from inside)', async () => {
		const words = ['alpha', 'b', '名前', '👍🏽 ok', 'e\u0301t\u00E9', 'running 0:12', '', 'a much longer line of text that will not fit'];
		const colors = [undefined, 'green', 'red', 'cyan'];
		for (let seed = 1; seed <= 12; seed++) {
			const random = seededRandom(seed);
			function pick<T>(items: readonly T[]): T {
				return items[Math.floor(random() * items.length)]!;
			}

			let next = 0;
			const newRow = (): RowModel => ({
				key: next++,
				text: pick(words),
				color: pick(colors),
				hidden: random() < 0.1,
				overlay: random() < 0.5 ? pick(['0:01', '0:02', '⠼', '12m']) : undefined,
				clip: random() < 0.15,
				indent: pick([0, 0, 2, 4]),
			});
			let model: Model = {width: pick([30, 40, 50]), rows: Array.from({length: 10}, newRow)};
			let set: (model: Model) => void = () => undefined;
			function Driven() {
				const [state, setState] = useState(model);
				set = setState;
				return <RandomTree model={state} />;
			}

			const shown = render(<Driven />);
			for (let step = 0; step < 40; step++) {
				const rows = [...model.rows];
				const at = Math.floor(random() * rows.length);
				const row = rows[at];
				const change = Math.floor(random() * 10);
				let {width} = model;
				if (change === 0) {
					rows.splice(at, 0, newRow());
				} else if (change === 1 && rows.length > 1) {
					rows.splice(at, 1);
				} else if (change === 2 && row) {
					rows.splice(at, 1);
					rows.splice(Math.floor(random() * (rows.length + 1)), 0, row);
				} else if (change === 3) {
					width = pick([30, 40, 50]);
				} else if (change === 4 && row) {
					rows[at] = {...row, hidden: !row.hidden};
				} else if (change === 5 && row) {
					rows[at] = {...row, overlay: pick([undefined, '0:03', '0:04', '⠦'])};
				} else if (change === 6 && row) {
					rows[at] = {...row, color: pick(colors)};
				} else if (change === 7 && row) {
					rows[at] = {...row, indent: pick([0, 2, 4])};
				} else if (change === 8 && row) {
					rows[at] = {...row, clip: !row.clip};
				} else if (row) {
					rows[at] = {...row, text: pick(words)};
				}

				model = {width, rows};
				set(model);
				await new Promise(resolve => {
					setImmediate(resolve);
				});
				const element: ReactElement = <RandomTree model={model} />;
				const fresh = render(element);
				expect(shown.lastFrame(), `seed ${seed}, step ${step}`).toBe(fresh.lastFrame());
				fresh.unmount();
			}

			shown.unmount();
		}
	});
});

describe('rows composed from runs of text', () => {
	test('a line of SGR codes and simple characters read without the tokenizer equals the tokenized line (3000 random lines)', () => {
		const random = seededRandom(23);
		function pick<T>(items: readonly T[]): T {
			return items[Math.floor(random() * items.length)]!;
		}

		const pieces = [
			'a', 'Z', ' ', '0:12', '~', '│', '├─', '✔', '✖', '●', '◐', '…', '·', '→', '⠼', '▸', '≥', '—', '×', 'é', '\u00A0',
			// Not simple: a combining mark, a variation selector (✔️ is an emoji), ZWJ, soft hyphen, wide, astral, Hangul jamo,
			// a control character.
			'e\u0301', '\uFE0F', '\u200D', '\u00AD', '\u2061', '名', '⏰', '👍🏽', '\u1100\u1161', '\u1161', 'ก\u0E33', '\u0D4E', '\t',
			'\u001B[1m', '\u001B[22m', '\u001B[32m', '\u001B[39m', '\u001B[0m', '\u001B[m', '\u001B[2m', '\u001B[7m', '\u001B[27m',
			'\u001B[38;5;208m', '\u001B[38;2;10;20;30m', '\u001B[48;5;17m', '\u001B[49m', '\u001B[1;31m', '\u001B[4:3m', '\u001B[24m',
			// Not SGR: the general path.
			'\u001B[2K', '\u001B]8;;https://example.test\u0007', '\u001B]8;;\u0007', '\u001B',
		];
		let fast = 0;
		for (let i = 0; i < 3000; i++) {
			const line = Array.from({length: 1 + Math.floor(random() * 8)}, () => pick(pieces)).join('');
			const read = outputCaches.simpleNarrowLine(line);
			if (read === undefined) {
				continue;
			}

			fast++;
			const tokenized = outputCaches.narrowLineOf(outputCaches.getStyledChars(line));
			expect(tokenized, JSON.stringify(line)).not.toBeNull();
			expect(read!.plain, JSON.stringify(line)).toBe(tokenized!.plain);
			expect(read!.body, JSON.stringify(line)).toBe(tokenized!.body);
			expect([...read!.offsets], JSON.stringify(line)).toEqual([...tokenized!.offsets]);
			// The same interned style arrays, by identity.
			expect(read!.styles.length, JSON.stringify(line)).toBe(tokenized!.styles.length);
			read!.styles.forEach((styles, at) => {
				expect(styles === tokenized!.styles[at], `${JSON.stringify(line)} at ${at}`).toBe(true);
			});
		}

		// The lines Ink's colours make of the list's rows are read this way.
		expect(fast).toBeGreaterThan(500);
		expect(outputCaches.simpleNarrowLine('\u001B[32m✔\u001B[39m a-probe-01 ├─ 42% · 0:12')).toBeDefined();
		expect(outputCaches.simpleNarrowLine('✔\uFE0F')).toBeUndefined();
		expect(outputCaches.simpleNarrowLine('e\u0301')).toBeUndefined();
		// A row's line is read this way: no tokenizing.
		const tokenized = vi.spyOn(outputCaches, 'getStyledChars');
		expect(outputCaches.getNarrowLine('\u001B[31m✖\u001B[39m b-00042 → once')?.plain).toBe('✖ b-00042 → once');
		expect(tokenized).not.toHaveBeenCalled();
	});

	test('a line of SGR codes and simple characters is as wide as string-width says, without asking it (3000 random lines)', () => {
		const random = seededRandom(29);
		function pick<T>(items: readonly T[]): T {
			return items[Math.floor(random() * items.length)]!;
		}

		const pieces = [
			'a', 'Z', ' ', '0:12', '│', '├─', '✔', '✖', '●', '…', '·', '→', '⠼', '▸', '—', 'é', '\u00A0',
			'e\u0301', '\uFE0F', '\u200D', '\u00AD', '名', '⏰', '👍🏽', '\u1100\u1161', 'ก\u0E33', '\t', '\n', '\u0085', '\u009B31m',
			'\u001B[1m', '\u001B[22m', '\u001B[32m', '\u001B[0m', '\u001B[m', '\u001B[38;5;208m', '\u001B[38;2;10;20;30m', '\u001B[4:3m',
			'\u001B[123456m', '\u001B[;5m', '\u001B[2K', '\u001B]8;;https://example.test\u0007', '\u001B[?25l', '\u001B',
		];
		let simple = 0;
		for (let i = 0; i < 3000; i++) {
			const line = Array.from({length: 1 + Math.floor(random() * 8)}, () => pick(pieces)).join('');
			const width = outputCaches.simpleWidth(line);
			if (width !== undefined) {
				simple++;
				expect(width, JSON.stringify(line)).toBe(stringWidth(line));
			}

			expect(outputCaches.getStringWidth(line), JSON.stringify(line)).toBe(stringWidth(line));
		}

		expect(simple).toBeGreaterThan(500);
		// A row's text is measured this way.
		const measured = vi.spyOn(outputCaches, 'simpleWidth');
		expect(outputCaches.getStringWidth('\u001B[32m✔\u001B[39m a-probe-07 ├─ 77% · 0:13')).toBe(26);
		expect(measured).toHaveReturnedWith(26);
		expect(outputCaches.simpleWidth('✔\uFE0F')).toBeUndefined();
	});

	test('a write of one line is its own line, not tokenized; lines of a longer write carry the styles across their ends', () => {
		const tokenized = vi.spyOn(outputCaches, 'getStyledChars');
		expect(outputCaches.getLines('\u001B[32mok once\u001B[39m')).toEqual(['\u001B[32mok once\u001B[39m']);
		expect(tokenized).not.toHaveBeenCalled();
		expect(outputCaches.getLines('\u001B[32ma\nb once\u001B[39m')).toEqual(['\u001B[32ma\u001B[39m', '\u001B[32mb once\u001B[39m']);
		expect(tokenized).toHaveBeenCalledTimes(1);
	});

	test('equal the rows built cell by cell (2000 random rows of overlapping styled pieces)', () => {
		const random = seededRandom(11);
		function pick<T>(items: readonly T[]): T {
			return items[Math.floor(random() * items.length)]!;
		}

		const words = [
			'a', 'ab', ' ', '   ', '0:12', '│ ', '✔', '⠼', 'e\u0301', '\u001B[1mb\u001B[22m', '\u001B[32m● ok\u001B[39m', '\u001B[7mx y\u001B[27m',
			'\u001B[2m\u001B[36mdim cyan\u001B[39m\u001B[22m', '\u001B[1m\u001B[2mboth\u001B[22m', '名', '👍🏽',
		];
		let composed = 0;
		let wholeRows = 0;
		for (let row = 0; row < 2000; row++) {
			const width = pick([8, 16, 40]);
			const output = new Output({width, height: 1});
			const pieces: unknown[] = [];
			for (let piece = 1 + Math.floor(random() * 4); piece > 0; piece--) {
				const line = Array.from({length: 1 + Math.floor(random() * 4)}, () => pick(words)).join('');
				pieces.push(Math.floor(random() * (width + 2)) - 1, line);
			}

			const runs = output.renderRuns(pieces);
			if (runs !== undefined) {
				composed++;
				expect(runs, JSON.stringify(pieces)).toBe(output.renderCells(pieces));
			}

			// Each way of composing on its own, where it takes the row.
			const owned = output.renderOwnedRuns(pieces);
			if (owned !== undefined) {
				expect(owned, JSON.stringify(pieces)).toBe(output.renderCells(pieces));
			}

			const whole = output.renderWholeLines(pieces);
			if (whole !== undefined) {
				wholeRows++;
				expect(whole, JSON.stringify(pieces)).toBe(output.renderCells(pieces));
			}
		}

		// Most random rows are narrow and inside the width: composed from runs, not left to the cells; many of
		// them have their pieces in order and apart, and join whole lines.
		expect(composed).toBeGreaterThan(300);
		expect(wholeRows).toBeGreaterThan(100);
	});

	test('a row of lines in order and apart joins the lines whole: no run looked up by column', () => {
		const output = new Output({width: 40, height: 1});
		const owned = vi.spyOn(Output.prototype, 'renderOwnedRuns');
		const row = [0, '\u001B[32m● ok\u001B[39m', 5, 'a-probe-01', 16, '\u001B[2m42%\u001B[22m', 20, '\u001B[1m\u001B[2mboth\u001B[22m'];
		expect(output.renderRuns(row)).toBe(output.renderCells(row));
		expect(owned).not.toHaveBeenCalled();
		// Overlapping pieces (a later write over an earlier one) are composed by owner.
		expect(output.renderRuns([0, 'abcdef', 2, '\u001B[1mXY\u001B[22m'])).toBe(output.renderCells([0, 'abcdef', 2, '\u001B[1mXY\u001B[22m']));
		expect(owned).toHaveBeenCalledTimes(1);
		owned.mockRestore();
	});

	test('a row with a wide character, or a piece outside the width, is built cell by cell; others are not', () => {
		const output = new Output({width: 10, height: 1});
		const cells = vi.spyOn(Output.prototype, 'renderCells');
		expect(output.renderRow([0, '\u001B[32m● ok\u001B[39m', 6, '0:12'])).toBe('\u001B[32m● ok\u001B[39m  0:12');
		expect(cells).not.toHaveBeenCalled();
		output.renderRow([0, 'a名b']);
		expect(cells).toHaveBeenCalledTimes(1);
		expect(output.renderRuns([0, 'a名b'])).toBeUndefined();
		expect(output.renderRuns([8, 'abc'])).toBeUndefined();
		expect(output.renderRuns([-1, 'ab'])).toBeUndefined();
		expect(output.renderRuns([0, '\u001B[32mok\u001B[39m', 5, 'x'])).toBe(output.renderCells([0, '\u001B[32mok\u001B[39m', 5, 'x']));
	});
});
