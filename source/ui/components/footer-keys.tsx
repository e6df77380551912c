import {Text} from 'ink';
import {memo} from 'react';
import {hintsFor, type HintContext, type Mode} from '../keymap.js';
import {useTheme} from '../theme-context.js';
import {singleLine, truncate} from '../cell-text.js';
import {displayWidth} from '../../model/display-width.js';
import {fitHints} from '../layout.js';
import {Line} from './line.js';

/** Hints that stay however narrow the terminal: the way to all keys, the way back and the way out. */
const kept: ReadonlySet<string> = new Set(['help', 'close', 'back', 'quit', 'extend']);

export type FooterKeysProps = {
	readonly mode: Mode;
	readonly context: HintContext;
	/** The list filter text, shown as a prompt while it is being typed. */
	readonly filter: string;
	/** One line answering the last action (`copied …`, `saved …`, an error), shown instead of the hints. */
	readonly message?: {readonly ok: boolean; readonly message: string};
	/** Terminal columns: hints that do not fit are left out whole (never cut). */
	readonly width?: number;
};

/**
 * Key hints from the keymap (`↑↓ move  ←→ fold  x all …`), or the filter prompt while typing. Memoized: a store
 * update re-renders the App, not these ~30 texts.
 */
export const FooterKeys = memo(function FooterKeys({mode, context, filter, message, width = Number.POSITIVE_INFINITY}: FooterKeysProps) {
	const theme = useTheme();
	if (message && mode !== 'filter') {
		return <Line {...theme.style(message.ok ? 'success' : 'error')}>
			{truncate(singleLine(message.message, theme.glyphs.lineBreak), width, theme.glyphs.ellipsis)}
		</Line>;
	}

	if (mode === 'filter') {
		return (
			<Line>
				<Text bold>/ </Text>
				{filter}
				<Text inverse> </Text>
				<Text {...theme.style('muted')}>{`  ${theme.ascii ? 'enter' : '⏎'} keep  esc clear`}</Text>
			</Line>
		);
	}

	const all = mode === 'help' ? [{label: '? esc', text: 'close'}, {label: 'q', text: 'quit'}] : hintsFor(mode, context);
	const labelOf = (hint: (typeof all)[number]) => (theme.ascii && 'asciiLabel' in hint && hint.asciiLabel ? hint.asciiLabel : hint.label);
	const shown = fitHints(all.map(hint => displayWidth(`${labelOf(hint)} ${hint.text}`)), width, i => kept.has(all[i]!.text));
	const hints = shown.map(i => all[i]!);
	return (
		<Line>
			{hints.map((hint, i) => (
				<Text key={hint.text}>
					{i > 0 ? '  ' : ''}
					<Text bold>{labelOf(hint)}</Text>{' '}
					<Text {...theme.style('muted')}>{hint.text}</Text>
				</Text>
			))}
		</Line>
	);
});
