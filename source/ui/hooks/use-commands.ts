import {useInput, useStdin, type Key} from 'ink';
import {commandFor, type Command, type KeyContext, type Mode} from '../keymap.js';
import {keyPresses} from '../split-keys.js';

export type CommandHandlers = {
	/** A key bound in `mode`. Returns the mode the command left the screen in, so the next key of the same chunk goes there. */
	onCommand(command: Command): Mode | void;
	/** Printable text while the filter prompt has the keyboard. */
	onText(text: string): void;
};

function isPrintable(input: string, key: Partial<Key>): boolean {
	return input !== '' && !key.ctrl && !key.meta && !key.escape && !key.return && !key.tab && !/[\u0000-\u001F\u007F]/.test(input);
}

/**
 * Runs the keys of one input chunk through the keymap, one by one: `jj` is two moves, `jq` a move and a quit.
 * Text typed or pasted into the filter prompt reaches `onText` in one piece per run.
 */
export function dispatchKeys(mode: Mode, input: string, key: Partial<Key>, handlers: CommandHandlers, context: KeyContext = {}): void {
	let current = mode;
	let text = '';
	const flush = () => {
		if (text !== '') {
			handlers.onText(text);
			text = '';
		}
	};

	for (const press of keyPresses(input, key)) {
		const command = commandFor(current, press.input, press.key, context);
		if (command) {
			flush();
			current = handlers.onCommand(command) ?? current;
		} else if (current === 'filter' && isPrintable(press.input, press.key)) {
			text += press.input;
		}
	}

	flush();
}

/**
 * THE keyboard owner: turns keys into commands through the keymap. Listens only when stdin supports raw mode
 * (piped stdin would make Ink throw).
 */
export function useCommands(mode: Mode, handlers: CommandHandlers, context: KeyContext = {}): void {
	const {isRawModeSupported} = useStdin();
	useInput(
		(input, key) => {
			dispatchKeys(mode, input, key, handlers, context);
		},
		{isActive: isRawModeSupported},
	);
}
