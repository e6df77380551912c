import {describe, expect, it} from 'vitest';
import type {Command} from '../../source/ui/keymap.js';
import {runSessionCommand} from '../../source/ui/session-commands.js';

describe('runSessionCommand: the keys that drive the wait and the replay', () => {
	it.each<[Command, boolean, string[]]>([
		['timeout.extend', true, ['extend']],
		['timeout.retract', true, ['retract']],
		['replay.pause', true, ['togglePause']],
		['replay.next', true, ['jump next']],
		['replay.previous', true, ['jump previous']],
		['cursor.down', false, []],
		['quit', false, []],
	])('%s', (command, handled, calls) => {
		const seen: string[] = [];
		const wait = {extend: () => seen.push('extend'), retract: () => seen.push('retract')};
		const replay = {togglePause: () => seen.push('togglePause'), jump: (d: 'next' | 'previous') => seen.push(`jump ${d}`)};
		expect(runSessionCommand(command, wait, replay)).toBe(handled);
		expect(seen).toEqual(calls);
	});

	it('replay keys without a replay are taken and do nothing', () => {
		expect(runSessionCommand('replay.pause', {extend() {}, retract() {}}, undefined)).toBe(true);
	});
});
