import {describe, expect, test} from 'vitest';
import {fit, fitRight, singleLine, truncate} from '../../source/ui/cell-text.js';
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
