import {Text} from 'ink';
import {hintsFor, type HintContext, type Mode} from '../keymap.js';
import {useTheme} from '../theme-context.js';
import {singleLine} from '../cell-text.js';
import {Line} from './line.js';

export type FooterKeysProps = {
	readonly mode: Mode;
	readonly context: HintContext;
	/** The list filter text, shown as a prompt while it is being typed. */
	readonly filter: string;
	/** One line answering the last action (`copied …`, `saved …`, an error), shown instead of the hints. */
	readonly message?: {readonly ok: boolean; readonly message: string};
};

/** Key hints from the keymap (`↑↓ move  ←→ fold  x all …`), or the filter prompt while typing. */
export function FooterKeys({mode, context, filter, message}: FooterKeysProps) {
	const theme = useTheme();
	if (message && mode !== 'filter') {
		return <Line {...theme.style(message.ok ? 'success' : 'error')}>{singleLine(message.message)}</Line>;
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

	const hints = mode === 'help' ? [{label: '? esc', text: 'close'}, {label: 'q', text: 'quit'}] : hintsFor(mode, context);
	return (
		<Line>
			{hints.map((hint, i) => (
				<Text key={hint.text}>
					{i > 0 ? '  ' : ''}
					<Text bold>{theme.ascii && 'asciiLabel' in hint && hint.asciiLabel ? hint.asciiLabel : hint.label}</Text>{' '}
					<Text {...theme.style('muted')}>{hint.text}</Text>
				</Text>
			))}
		</Line>
	);
}
