/**
 * The patched Ink sanitizer (build/sanitize-ansi.js, patches/README.md "Styled text passed through"): a text whose
 * only escapes are SGR sequences of digits and semicolons, with no other control character and no combining mark
 * right after a sequence, is returned as it is instead of tokenized. It must give what the tokenizing path gives.
 */
import '../helpers/force-color.js';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {Text} from 'ink';
import {render} from 'ink-testing-library';
import {afterEach, expect, test, vi} from 'vitest';
import {seededRandom} from '../helpers/random-strings.js';

const root = path.resolve(import.meta.dirname, '../..');
// Ink exports only its entry point: its modules are loaded by their files.
const sanitizer = (await import(pathToFileURL(path.join(root, 'node_modules/ink/build/sanitize-ansi.js')).href)) as {
	default: (text: string) => string;
	sanitizePaths: {isPlainSgrText(text: string): boolean; tokenized(text: string): string};
};
const sanitizeAnsi = sanitizer.default;
const paths = sanitizer.sanitizePaths;

afterEach(() => {
	vi.restoreAllMocks();
});

const pieces = [
	'plain', ' ', 'a longer run of words', '名前', '👍🏽', 'e\u0301', '\u0301', '\u093F', '\u20DD', '\t', '\n', '\r\n',
	'\u001B[m', '\u001B[0m', '\u001B[32m', '\u001B[1;4m', '\u001B[38;5;196m', '\u001B[38;2;1;2;3m', '\u001B[;;m',
	'\u001B[1234567m', '\u001B[38:5:196m', '\u001B[4:3m', '\u001B[58:2::1:2:3m', '\u001B[1 q', '\u001B[2J', '\u001B[?25l',
	'\u001B[12', '\u001B[', '\u001B', '\u001B]8;;https://example.test\u0007link\u001B]8;;\u0007', '\u001BP1$r\u001B\\',
	'\u0007', '\u0000', '\u007F', '\u0085', '\u009B31m', '\u009D0;x\u009C', '\uFEFF',
];

test('a text the plain path takes is what the tokenizing path gives (4000 random texts)', () => {
	const random = seededRandom(14);
	let plain = 0;
	for (let i = 0; i < 4000; i++) {
		const text = Array.from({length: 1 + Math.floor(random() * 8)}, () => pieces[Math.floor(random() * pieces.length)]!).join('');
		expect(sanitizeAnsi(text), JSON.stringify(text)).toBe(paths.tokenized(text));
		if (text.includes('\u001B') && paths.isPlainSgrText(text)) {
			plain++;
		}
	}

	// Both ways were taken, each many times.
	expect(plain).toBeGreaterThan(200);
	expect(plain).toBeLessThan(3800);
});

test('a mark right after a sequence, a colon sub-parameter, another control: the tokenizing path', () => {
	for (const text of ['\u001B[31m\u0301x', '\u001B[38:5:196mx', '\u001B[31mx\u0007', '\u001B[1 qx', '\u001B]8;;u\u0007x\u001B]8;;\u0007', 'x\u0085']) {
		expect(paths.isPlainSgrText(text), JSON.stringify(text)).toBe(false);
	}

	expect(sanitizeAnsi('\u001B[31m\u0301x')).toBe('\u0301\u001B[31mx');
});

test('a styled row changed in place is not tokenized', async () => {
	function Row({name}: {readonly name: string}) {
		return (
			<Text>
				<Text color="green">● </Text>
				<Text bold>{name}</Text>
				<Text color="gray"> 0:12</Text>
			</Text>
		);
	}

	const shown = render(<Row name="backup" />);
	const tokenized = vi.spyOn(paths, 'tokenized');
	shown.rerender(<Row name="restore" />);
	await new Promise(resolve => {
		setImmediate(resolve);
	});
	expect(shown.lastFrame()).toContain('restore');
	// Coloured: the row's text carries SGR sequences.
	expect(shown.lastFrame()).toContain('\u001B[');
	expect(tokenized).not.toHaveBeenCalled();
	shown.unmount();
});
