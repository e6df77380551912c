import {describe, expect, it} from 'vitest';
import {markdownCodeBlock} from '../../source/cli/tui-actions.js';

describe('the copied tree as a Markdown code block', () => {
	it('fences the text so a chat keeps its alignment', () => {
		expect(markdownCodeBlock('a\n├─ b\n')).toBe('```\na\n├─ b\n```\n');
		expect(markdownCodeBlock('no newline')).toBe('```\nno newline\n```\n');
	});

	it('uses a fence longer than any backtick run inside (an event message cannot close it)', () => {
		expect(markdownCodeBlock('msg: ```rm -rf``` and ````\n')).toBe('`````\nmsg: ```rm -rf``` and ````\n`````\n');
	});
});
