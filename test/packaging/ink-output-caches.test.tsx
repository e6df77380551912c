/**
 * The patched Ink output stage (patches/ink+8.0.0.patch): a text's squashed content is kept on its node until a
 * change below it (build/squash-text-nodes.js, build/dom.js), and `Output.get` looks up a row whose pieces an
 * earlier frame already built (build/output.js). Both must only ever save work: every frame equals the frame a
 * fresh render of the same tree gives.
 */
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {Box, Text, Transform} from 'ink';
import {render} from 'ink-testing-library';
import {Suspense, use, type ReactNode} from 'react';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {seededRandom} from '../helpers/random-strings.js';

const root = path.resolve(import.meta.dirname, '../..');
type Write = {x: number; y: number; text: string};
type Clip = {x1?: number; x2?: number; y1?: number; y2?: number};
type OutputInstance = {
	write(x: number, y: number, text: string, options: {transformers: Array<(line: string, index: number) => string>}): void;
	clip(clip: Clip): void;
	unclip(): void;
	get(): {output: string; height: number};
};
type OutputModule = {
	default: new (options: {width: number; height: number}) => OutputInstance;
	outputCaches: {rows: Map<string, string>};
};
// Ink exports only its entry point: the module is loaded by its file.
const outputModule = (await import(pathToFileURL(path.join(root, 'node_modules/ink/build/output.js')).href)) as OutputModule;
const Output = outputModule.default;

function frameOf(width: number, height: number, operations: ReadonlyArray<Write | Clip | 'unclip'>): string {
	const output = new Output({width, height});
	for (const operation of operations) {
		if (operation === 'unclip') {
			output.unclip();
		} else if ('text' in operation) {
			output.write(operation.x, operation.y, operation.text, {transformers: []});
		} else {
			output.clip(operation);
		}
	}

	return output.get().output;
}

afterEach(() => {
	vi.restoreAllMocks();
});

describe('Output rows', () => {
	test('a row an earlier frame built is looked up, not built again', () => {
		const operations = [
			{x: 0, y: 0, text: 'header'},
			{x: 2, y: 1, text: '\u001B[32m●\u001B[39m row one'},
			{x: 2, y: 2, text: 'row two'},
		];
		const first = frameOf(20, 3, operations);
		const build = vi.spyOn(Output.prototype as unknown as {renderRow(pieces: unknown[]): string}, 'renderRow');
		expect(frameOf(20, 3, operations)).toBe(first);
		expect(build).not.toHaveBeenCalled();
		// One changed row is the only one built.
		frameOf(20, 3, [...operations.slice(0, 2), {x: 2, y: 2, text: 'row 2'}]);
		expect(build).toHaveBeenCalledTimes(1);
	});

	test('a row is told apart by where its pieces are and by the width', () => {
		expect(frameOf(10, 2, [{x: 0, y: 0, text: 'ab'}, {x: 1, y: 1, text: 'ab'}])).toBe('ab\n ab');
		expect(frameOf(3, 1, [{x: 5, y: 0, text: 'ab'}])).toBe('   ab');
		expect(frameOf(6, 1, [{x: 5, y: 0, text: 'ab'}])).toBe('     ab');
	});

	test('frames drawn with the rows of earlier frames equal frames drawn from nothing', () => {
		const random = seededRandom(7);
		function pick<T>(items: readonly T[]): T {
			return items[Math.floor(random() * items.length)]!;
		}

		const words = ['a', 'ab', '名前', 'e\u0301', '👍🏽', '\u001B[1mb\u001B[22m', '\u001B[36m⠼\u001B[39m', ' ', '0:12', '│ ', '\u001B[7mx\u001B[27m'];
		for (let frame = 0; frame < 400; frame++) {
			const width = pick([6, 10, 16]);
			const height = pick([1, 2, 4]);
			const operations: Array<Write | Clip | 'unclip'> = [];
			let clipped = false;
			const writes = 1 + Math.floor(random() * 5);
			for (let i = 0; i < writes; i++) {
				if (!clipped && random() < 0.15) {
					operations.push({x1: Math.floor(random() * 4), x2: 4 + Math.floor(random() * 8), y1: 0, y2: 1 + Math.floor(random() * height)});
					clipped = true;
				}

				const lines = Array.from({length: 1 + Math.floor(random() * 2)}, () => Array.from({length: 1 + Math.floor(random() * 4)}, () => pick(words)).join(''));
				operations.push({x: Math.floor(random() * (width + 4)) - 1, y: Math.floor(random() * height), text: lines.join('\n')});
			}

			if (clipped) {
				operations.push('unclip');
			}

			const withEarlierRows = frameOf(width, height, operations);
			const earlierRows = outputModule.outputCaches.rows;
			outputModule.outputCaches.rows = new Map();
			const fromNothing = frameOf(width, height, operations);
			outputModule.outputCaches.rows = earlierRows;
			expect(withEarlierRows, JSON.stringify(operations)).toBe(fromNothing);
		}
	});
});

describe('squashed texts', () => {
	test('an unchanged text is not squashed again when another one changes', () => {
		const upper = vi.fn((line: string) => line.toUpperCase());
		const view = (n: number) => (
			<Box flexDirection="column">
				<Text>
					<Transform transform={upper}>static</Transform>
				</Text>
				<Text>{n}</Text>
			</Box>
		);
		const {lastFrame, rerender, unmount} = render(view(1));
		expect(lastFrame()).toBe('STATIC\n1');
		upper.mockClear();
		rerender(view(2));
		expect(lastFrame()).toBe('STATIC\n2');
		expect(upper).not.toHaveBeenCalled();
		unmount();
	});

	const never = new Promise<string>(() => {});
	function Pending(): ReactNode {
		return use(never);
	}

	// Each change below a text, made after the first frame, must show as a fresh render of the new tree shows it.
	test.each<[string, ReactNode, ReactNode]>([
		['a nested text changes', <Text key="t">a <Text color="green">b</Text> c</Text>, <Text key="t">a <Text color="green">bb</Text> c</Text>],
		['a nested text is added', <Text key="t">a <Text bold>b</Text></Text>, <Text key="t">a <Text bold>b</Text><Text color="red"> new</Text></Text>],
		['a nested text is removed', <Text key="t">a <Text bold>b</Text><Text color="red"> gone</Text></Text>, <Text key="t">a <Text bold>b</Text></Text>],
		['a nested style changes', <Text key="t">a <Text color="green">b</Text></Text>, <Text key="t">a <Text color="red">b</Text></Text>],
		['a deeply nested text changes', <Text key="t">a <Text bold>b <Text color="blue">c</Text></Text></Text>, <Text key="t">a <Text bold>b <Text color="blue">cc</Text></Text></Text>],
		[
			'a nested transform changes',
			<Text key="t">a <Transform transform={line => line.toUpperCase()}>b</Transform></Text>,
			<Text key="t">a <Transform transform={line => `[${line}]`}>b</Transform></Text>,
		],
		['a nested text suspends', <Text key="t">a <Suspense fallback="…"><Text>b</Text></Suspense></Text>, <Text key="t">a <Suspense fallback="…"><Text>b</Text><Pending /></Suspense></Text>],
		['a tab appears', <Text key="t">a b</Text>, <Text key="t">a{'\t'}b</Text>],
		// Props and style keys that go away (reconciler.js `diff`): each must be set back.
		['a box loses its padding', <Box key="b" paddingLeft={3}><Text>x</Text></Box>, <Box key="b"><Text>x</Text></Box>],
		['a box loses its border', <Box key="b" borderStyle="single" width={5}><Text>x</Text></Box>, <Box key="b" width={5}><Text>x</Text></Box>],
		['a box loses one of its styles', <Box key="b" paddingLeft={2} marginTop={1}><Text>x</Text></Box>, <Box key="b" marginTop={1}><Text>x</Text></Box>],
		['a text loses its colour', <Text key="t" color="red">x</Text>, <Text key="t">x</Text>],
	])('%s', (_what, before, after) => {
		const changed = render(<Box>{before}</Box>);
		changed.rerender(<Box>{after}</Box>);
		const fresh = render(<Box>{after}</Box>);
		expect(changed.lastFrame()).toBe(fresh.lastFrame());
		changed.unmount();
		fresh.unmount();
	});
});

describe('control characters in a text (ansi-tokenizer.js)', () => {
	// Ink sanitizes what a <Text> writes when it holds ESC or a C1 control (sanitize-ansi.js): SGR is kept, other
	// controls dropped. The patch finds C1 controls by code unit.
	test.each([
		['a C1 CSI (kept as SGR)', 'a\u009B31mb', 'a\u001B[31mb\u001B[39m'],
		['a C1 control after an astral character', '👍🏽 x\u0085y', '👍🏽 xy'],
		['a C1 control at the end', 'ok\u009F', 'ok'],
		['a C1 control at the start', '\u0080ok', 'ok'],
		['no control', 'ü · é → ✔ 👍🏽', 'ü · é → ✔ 👍🏽'],
	])('%s', (_what, text, frame) => {
		const {lastFrame, unmount} = render(<Text>{text}</Text>);
		expect(lastFrame()).toBe(frame);
		unmount();
	});
});
