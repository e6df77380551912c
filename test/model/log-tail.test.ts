import {describe, expect, test} from 'vitest';
import {appendLog, emptyLogTail, logTailLimits, shownLogLines} from '../../source/model/log-tail.js';

describe('appendLog: the last lines, capped in lines and bytes, sanitized', () => {
	test('lines complete when their newline comes, across chunks', () => {
		let tail = appendLog(emptyLogTail, 'one\ntw');
		expect(tail.lines).toEqual(['one']);
		expect(shownLogLines(tail)).toEqual(['one', 'tw']);
		tail = appendLog(tail, 'o\r\nthree\n');
		expect(tail.lines).toEqual(['one', 'two', 'three']);
		expect(tail.partial).toBe('');
	});

	test('the line cap keeps the newest and counts what it dropped', () => {
		const tail = appendLog(emptyLogTail, Array.from({length: 10}, (_, i) => `line ${i}\n`).join(''), {lines: 3, bytes: 1000});
		expect(tail.lines).toEqual(['line 7', 'line 8', 'line 9']);
		expect(tail.dropped).toBe(7);
	});

	test('the byte cap holds', () => {
		const tail = appendLog(emptyLogTail, `${'x'.repeat(100)}\n`.repeat(10), {lines: 100, bytes: 250});
		expect(tail.lines.length).toBe(2);
		expect(tail.bytes).toBe(200);
		expect(tail.bytes).toBeLessThanOrEqual(250);
	});

	test('the default caps bound a flood', () => {
		let tail = emptyLogTail;
		for (let i = 0; i < 1000; i++) {
			tail = appendLog(tail, `${'é'.repeat(1000)}\n`);
		}

		expect(tail.lines.length).toBeLessThanOrEqual(logTailLimits.lines);
		expect(tail.bytes).toBeLessThanOrEqual(logTailLimits.bytes);
		expect(tail.lines[0]!.length).toBeLessThanOrEqual(logTailLimits.lineChars);
	});

	test('escape sequences in a log never survive', () => {
		const tail = appendLog(emptyLogTail, 'ok \u001B]52;c;ZXZpbA==\u0007done\u001B[2J\n');
		expect(tail.lines).toEqual(['ok done']);
	});

	test('an endless line without a newline stays bounded', () => {
		let tail = emptyLogTail;
		for (let i = 0; i < 100; i++) {
			tail = appendLog(tail, 'y'.repeat(10_000));
		}

		expect(tail.partial.length).toBeLessThanOrEqual(logTailLimits.lineChars * 4);
		expect(shownLogLines(tail)[0]!.length).toBeLessThanOrEqual(logTailLimits.lineChars);
	});
});
