import {useInput, useStdin, type Key} from 'ink';
import {commandFor, type Command, type KeyContext, type Mode} from '../keymap.js';

export type CommandHandlers = {
	/** A key bound in `mode`. */
	onCommand(command: Command): void;
	/** Printable text while the filter prompt has the keyboard. */
	onText(text: string): void;
};

function isPrintable(input: string, key: Key): boolean {
	return input !== '' && !key.ctrl && !key.meta && !key.escape && !key.return && !key.tab && !/[\u0000-\u001F\u007F]/.test(input);
}

/**
 * THE keyboard owner: turns keys into commands through the keymap. Listens only when stdin supports raw mode
 * (piped stdin would make Ink throw).
 */
export function useCommands(mode: Mode, handlers: CommandHandlers, context: KeyContext = {}): void {
	const {isRawModeSupported} = useStdin();
	useInput(
		(input, key) => {
			const command = commandFor(mode, input, key, context);
			if (command) {
				handlers.onCommand(command);
			} else if (mode === 'filter' && isPrintable(input, key)) {
				handlers.onText(input);
			}
		},
		{isActive: isRawModeSupported},
	);
}
