import {describe, expect, test} from 'vitest';
import type {Command, Mode} from '../../source/ui/keymap.js';
import {dispatchKeys} from '../../source/ui/hooks/use-commands.js';
import {keyPressOf, keyPresses, splitKeys} from '../../source/ui/split-keys.js';

describe('splitKeys', () => {
	test.each([
		['jj', ['j', 'j']],
		['jq', ['j', 'q']],
		['j'.repeat(500), Array.from({length: 500}, () => 'j')],
		['j\u001B[Ak', ['j', '\u001B[A', 'k']],
		['\u001B[A\u001B[B', ['\u001B[A', '\u001B[B']],
		['\u001B[5~\u001B[6~', ['\u001B[5~', '\u001B[6~']],
		['\u001BOA\u001BOB', ['\u001BOA', '\u001BOB']],
		['\u001B[1;5Ax', ['\u001B[1;5A', 'x']],
		['\u001B[[Ay', ['\u001B[[A', 'y']],
		['\u001Bjk', ['\u001Bj', 'k']],
		['a\u001B', ['a', '\u001B']],
		['\u001B\u001B[A', ['\u001B\u001B[A']],
		['x\r\ny', ['x', '\r', 'y']],
		['😀名j', ['😀', '名', 'j']],
		['', []],
	])('%j → %j', (chunk, keys) => {
		expect(splitKeys(chunk)).toEqual(keys);
	});

	test('a malformed CSI ends where its bytes end', () => {
		expect(splitKeys('\u001B[12\u0003q')).toEqual(['\u001B[12', '\u0003', 'q']);
	});
});

describe('keyPressOf', () => {
	test.each([
		['j', {input: 'j', key: {}}],
		['G', {input: 'G', key: {shift: true}}],
		[' ', {input: ' ', key: {}}],
		['\r', {input: '', key: {return: true}}],
		['\u007F', {input: '', key: {backspace: true}}],
		['\u0003', {input: 'c', key: {ctrl: true}}],
		['\u001B', {input: '', key: {escape: true}}],
		['\u001B[A', {input: '', key: {upArrow: true}}],
		['\u001B[6~', {input: '', key: {pageDown: true}}],
		['\u001Bx', {input: 'x', key: {meta: true}}],
	])('%j', (sequence, press) => {
		expect(keyPressOf(sequence)).toEqual(press);
	});

	test('a named key from Ink is one key, whatever its input', () => {
		expect(keyPresses('', {upArrow: true})).toEqual([{input: '', key: {upArrow: true}}]);
		expect(keyPresses('jj', {})).toHaveLength(2);
	});
});

describe('dispatchKeys', () => {
	function run(mode: Mode, chunk: string, nextMode: (command: Command, mode: Mode) => Mode = (_c, m) => m) {
		const seen: string[] = [];
		let current = mode;
		dispatchKeys(mode, chunk, {}, {
			onCommand(command) {
				seen.push(command);
				current = nextMode(command, current);
				return current;
			},
			onText(text) {
				seen.push(`text:${text}`);
			},
		});
		return seen;
	}

	test('several keys in one chunk are several commands, quit included', () => {
		expect(run('tree', 'jj')).toEqual(['cursor.down', 'cursor.down']);
		expect(run('tree', 'jq')).toEqual(['cursor.down', 'quit']);
		expect(run('tree', 'j'.repeat(500))).toHaveLength(500);
	});

	test('a paste into the filter arrives as text; keys after Enter go to the list again', () => {
		const modes = (command: Command, mode: Mode): Mode => (command === 'filter.start' ? 'filter' : command === 'filter.commit' ? 'list' : mode);
		expect(run('filter', 'kafka-prod')).toEqual(['text:kafka-prod']);
		expect(run('list', '/kaf\rjq', modes)).toEqual(['filter.start', 'text:kaf', 'filter.commit', 'cursor.down', 'quit']);
	});
});
