import {describe, expect, it} from 'vitest';
import {bell, forTerminal, notification, osc52, osc777, osc9, tmuxPassthrough} from '../../source/model/terminal-sequences.js';

const ESC = '\u001B';
const BEL = '\u0007';

describe('terminal sequences', () => {
	it('OSC 9 and OSC 777 carry one sanitized line', () => {
		expect(osc9('planwatch: deploy succeeded')).toBe(`${ESC}]9;planwatch: deploy succeeded${BEL}`);
		expect(osc777('planwatch', 'deploy; succeeded')).toBe(`${ESC}]777;notify;planwatch;deploy, succeeded${BEL}`);
	});

	it('no escape injection from a hostile name: ESC, BEL, ST and C1 are gone', () => {
		const hostile = `evil${BEL}${ESC}]52;c;aGk=${BEL}${ESC}\\\u009D0;title\u009C\nnext`;
		for (const s of [osc9(hostile), osc777(hostile, hostile)]) {
			const inner = s.slice(2, -1);
			expect(inner).not.toMatch(/[\u0000-\u001F\u007F-\u009F]/);
		}
	});

	it('OSC 9 text that looks like a ConEmu command gets a leading space', () => {
		expect(osc9('4;3;50')).toBe(`${ESC}]9; 4;3;50${BEL}`);
	});

	it('OSC 52 puts base64 UTF-8 on the clipboard, and refuses what terminals would drop', () => {
		expect(osc52('héllo\n')).toBe(`${ESC}]52;c;${Buffer.from('héllo\n').toString('base64')}${BEL}`);
		expect(osc52('x'.repeat(200_000))).toBeUndefined();
	});

	it('tmux passthrough: DCS tmux; with every ESC doubled, ended by ST', () => {
		expect(tmuxPassthrough(`${ESC}]9;hi${BEL}`)).toBe(`${ESC}Ptmux;${ESC}${ESC}]9;hi${BEL}${ESC}\\`);
		expect(forTerminal('x', false)).toBe('x');
		expect(forTerminal(`${ESC}]9;a${BEL}`, true).startsWith(`${ESC}Ptmux;`)).toBe(true);
	});

	it('a notification is OSC 9, OSC 777 and the bell; the bell is never wrapped', () => {
		const plain = notification('planwatch', 'backup failed', false);
		expect(plain).toBe(`${ESC}]9;planwatch: backup failed${BEL}${ESC}]777;notify;planwatch;backup failed${BEL}${bell}`);
		const tmux = notification('planwatch', 'backup failed', true);
		expect(tmux.endsWith(`${ESC}\\${BEL}`)).toBe(true);
		expect(tmux.match(/\u001BPtmux;/g)).toHaveLength(2);
	});
});
