import {describe, expect, test} from 'vitest';
import {fit, fitParts, fitRight, singleLine, truncate, wrapLines} from '../../source/ui/cell-text.js';
import {displayWidth} from '../../source/model/display-width.js';

describe('cell text', () => {
	test('singleLine keeps a row a row', () => {
		expect(singleLine('a\nb\r\n  c\td')).toBe('a b c d');
	});

	test('truncate marks the cut and never exceeds the width', () => {
		expect(truncate('abcdef', 4)).toBe('abc…');
		expect(truncate('abcdef', 4, '...')).toBe('a...');
		expect(truncate('abc', 4)).toBe('abc');
		expect(truncate('abcdef', 0)).toBe('');
		expect(truncate('abcdef', 2, '...')).toBe('ab');
	});

	test('fit pads or cuts to exactly the width; fitRight aligns right', () => {
		expect(fit('ab', 4)).toBe('ab  ');
		expect(fit('abcdef', 4)).toBe('abc…');
		expect(fitRight('3:41', 7)).toBe('   3:41');
		expect(displayWidth('✔ done')).toBe(6);
	});
});

describe('fitParts: what gives way on a line too long for the terminal', () => {
	const width = (parts: string[]) => displayWidth(parts.join(''));
	test.each([
		// [parts, width, expected]
		{name: 'fits: unchanged', parts: [{text: 'name '}, {text: 'failed'}], width: 20, expected: ['name ', 'failed']},
		{
			name: 'the part that may give way is cut, marked; the state word is whole',
			parts: [{text: 'backup-glptq-6jzt4', giveWay: 1}, {text: '  failed'}],
			width: 16,
			expected: ['backup-…', '  failed'],
		},
		{
			name: 'the lowest giveWay goes first, only as far as needed',
			parts: [{text: 'aaaaaaaaaa', giveWay: 2}, {text: 'bbbbbbbbbb', giveWay: 1, min: 4}],
			width: 16,
			expected: ['aaaaaaaaaa', 'bbbbb…'],
		},
		{name: 'then the next one', parts: [{text: 'aaaaaaaaaa', giveWay: 2}, {text: 'bbbbbbbbbb', giveWay: 1, min: 4}], width: 10, expected: ['aaaaa…', 'bbb…']},
		{
			// Each cut keeps a marker while it can: `a` alone (unmarked) used to be left here.
			name: 'past every min, down to the marker alone, then nothing in the same order but the last marker',
			parts: [{text: 'aaaa', giveWay: 2, min: 2}, {text: 'bbbb', giveWay: 1, min: 2}, {text: '0:41'}],
			width: 5,
			expected: ['…', '', '0:41'],
		},
		{
			name: 'down to the markers alone',
			parts: [{text: 'aaaa', giveWay: 2, min: 2}, {text: 'bbbb', giveWay: 1, min: 2}, {text: '0:41'}],
			width: 6,
			expected: ['…', '…', '0:41'],
		},
		{
			name: 'an ASCII marker alone',
			parts: [{text: 'aaaaaa', giveWay: 1}, {text: ' failed'}],
			width: 10,
			ellipsis: '...',
			expected: ['...', ' failed'],
		},
		{name: 'keep is a floor no pass goes under', parts: [{text: 'aaaa', giveWay: 1, keep: 3}, {text: '0:41'}], width: 5, expected: ['aa…', '0:41']},
		{
			name: 'padding is cut without a marker',
			parts: [{text: 'name'}, {text: '      ', giveWay: 1, mark: false as const}, {text: 'IN_PROGRESS'}],
			width: 17,
			expected: ['name', '  ', 'IN_PROGRESS'],
		},
		{name: 'parts that never give way stay whole even when too wide', parts: [{text: 'IN_PROGRESS'}, {text: ' 12:01'}], width: 8, expected: ['IN_PROGRESS', ' 12:01']},
		{name: 'ASCII marker', parts: [{text: 'backup-glptq', giveWay: 1}, {text: ' failed'}], width: 14, ellipsis: '...', expected: ['back...', ' failed']},
	])('$name', ({parts, width: w, expected, ellipsis}) => {
		const fitted = fitParts(parts, w, ellipsis);
		expect(fitted).toEqual(expected);
		// Whatever may give way does, until the line fits or only what never gives way (or keeps cells) is left.
		if (parts.some(part => part.giveWay !== undefined) && !parts.some(part => 'keep' in part)) {
			expect(width(fitted)).toBeLessThanOrEqual(Math.max(w, width(parts.filter(p => p.giveWay === undefined).map(p => p.text))));
		}
	});
});

describe('wrapLines: a message in the lines it gets, its cut marked', () => {
	test.each([
		{text: 'copyFiles: exit status 3', width: 40, height: 3, expected: ['copyFiles: exit status 3']},
		{text: 'copyFiles: exit status 3: snapshot upload refused', width: 20, height: 3, expected: ['copyFiles: exit', 'status 3: snapshot', 'upload refused']},
		// Five lines' worth in two: the second ends in the marker.
		{text: 'one two three four five six seven eight nine ten', width: 10, height: 2, expected: ['one two', 'three fou…']},
		{text: 'a-very-long-word-broken-hard', width: 10, height: 3, expected: ['a-very-lon', 'g-word-bro', 'ken-hard']},
		{text: 'a-very-long-word-broken-hard', width: 10, height: 2, expected: ['a-very-lon', 'g-word-...'], ellipsis: '...'},
		{text: 'anything', width: 0, height: 2, expected: []},
	])('$text in $width×$height', ({text, width, height, expected, ellipsis}) => {
		const lines = wrapLines(text, width, height, ellipsis);
		expect(lines).toEqual(expected);
		for (const line of lines) {
			expect(displayWidth(line)).toBeLessThanOrEqual(width);
		}
	});
});
