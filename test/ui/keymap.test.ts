import {describe, expect, test} from 'vitest';
import type {Key} from 'ink';
import {commandFor, hintsFor, keymap} from '../../source/ui/keymap.js';

function keyOf(spec: (typeof keymap)[number]['keys'][number]): [string, Partial<Key>] {
	return 'key' in spec ? ['', {[spec.key]: true}] : [spec.input, {ctrl: Boolean(spec.ctrl)}];
}

describe('keymap', () => {
	test('every key reaches its command in each of its modes (no binding is shadowed)', () => {
		for (const binding of keymap) {
			for (const mode of binding.modes) {
				for (const spec of binding.keys) {
					const [input, key] = keyOf(spec);
					expect(commandFor(mode, input, key, {replay: binding.only === 'replay'}), `${binding.label} in ${mode}`).toBe(binding.command);
				}
			}
		}
	});

	test('in a replay space pauses and [ ] step; enter still toggles; elsewhere they are not bound', () => {
		expect(commandFor('tree', ' ', {}, {replay: true})).toBe('replay.pause');
		expect(commandFor('list', ']', {}, {replay: true})).toBe('replay.next');
		expect(commandFor('tree', '[', {}, {replay: true})).toBe('replay.previous');
		expect(commandFor('tree', '\r', {return: true}, {replay: true})).toBe('fold.toggle');
		expect(commandFor('tree', ' ', {})).toBe('fold.toggle');
		expect(commandFor('tree', ']', {})).toBeUndefined();
	});

	test('enter toggles in the tree and opens in the list; esc in the filter prompt clears it', () => {
		expect(commandFor('tree', '\r', {return: true})).toBe('fold.toggle');
		expect(commandFor('list', '\r', {return: true})).toBe('list.open');
		expect(commandFor('filter', '', {escape: true})).toBe('filter.cancel');
		expect(commandFor('tree', '', {escape: true})).toBe('back');
	});

	test('typing in the filter prompt is text, not commands; ctrl+c still quits', () => {
		for (const input of ['q', 'j', 'x', 'e', '?', '/']) {
			expect(commandFor('filter', input, {})).toBeUndefined();
		}

		expect(commandFor('filter', 'c', {ctrl: true})).toBe('quit');
	});

	test('footer hints follow the screen and what applies', () => {
		const texts = (mode: 'tree' | 'list', canGoBack: boolean, canExtend: boolean) => hintsFor(mode, {canGoBack, canExtend}).map(h => h.text);
		expect(texts('tree', false, true)).toEqual(['move', 'fold', 'all', 'events', 'extend', 'help', 'quit']);
		expect(texts('tree', true, false)).toEqual(['move', 'fold', 'all', 'events', 'help', 'back', 'quit']);
		expect(texts('list', false, false)).toEqual(['move', 'fold', 'all', 'open', 'filter', 'failing only', 'events', 'help', 'quit']);
	});
});
