/**
 * THE key table: key → command + description. Input dispatch, the footer and the help overlay all read it
 * (k9s `KeyActions`/`Hints()`, gemini-cli `keyBindings.ts`).
 */
import type {Key} from 'ink';

export type Command =
	| 'cursor.up'
	| 'cursor.down'
	| 'cursor.top'
	| 'cursor.bottom'
	| 'cursor.pageUp'
	| 'cursor.pageDown'
	| 'fold.collapse'
	| 'fold.expand'
	| 'fold.toggle'
	| 'fold.all'
	| 'list.open'
	| 'filter.start'
	| 'filter.commit'
	| 'filter.cancel'
	| 'filter.erase'
	| 'failing.toggle'
	| 'events.toggle'
	| 'help.toggle'
	| 'timeout.extend'
	| 'timeout.retract'
	| 'replay.pause'
	| 'replay.previous'
	| 'replay.next'
	| 'copy.tree'
	| 'copy.json'
	| 'snapshot.save'
	| 'notify.toggle'
	| 'back'
	| 'quit';

/** Who gets the keys: the open overlay first (help, filter prompt), else the screen. */
export type Mode = 'tree' | 'list' | 'help' | 'filter';

type KeyName = 'upArrow' | 'downArrow' | 'leftArrow' | 'rightArrow' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'return' | 'escape'
	| 'backspace' | 'delete';

export type KeySpec = {readonly input: string; readonly ctrl?: boolean} | {readonly key: KeyName};

/** Facts that decide whether a footer hint applies. */
export type HintContext = {
	/** Esc would go back to the list (a tree opened from it). */
	readonly canGoBack: boolean;
	/** There is a deadline `+` can move. */
	readonly canExtend: boolean;
	/** `planwatch replay`: the replay keys apply. */
	readonly replay?: boolean;
};

/** Facts that decide whether a key is bound at all. */
export type KeyContext = {readonly replay?: boolean};

export type Binding = {
	readonly command: Command;
	readonly keys: readonly KeySpec[];
	readonly modes: readonly Mode[];
	/** Keys as the help overlay shows them. */
	readonly label: string;
	readonly asciiLabel?: string;
	readonly description: string;
	/** Heading in the help overlay. */
	readonly section: 'Move' | 'Trees (list and full screen)' | 'List' | 'Filter prompt' | 'Panes' | 'Share' | 'Timeout' | 'Replay'
		| 'Quit';
	/** Bound only in this situation (before the bindings it shadows, e.g. space pauses a replay). */
	readonly only?: keyof KeyContext;
	/** Short footer hint (one per command family). */
	readonly hint?: {readonly label: string; readonly asciiLabel?: string; readonly text: string; readonly when?: keyof HintContext};
};

const views: readonly Mode[] = ['tree', 'list'];
/** Moving keys also scroll the help overlay. */
const moving: readonly Mode[] = ['tree', 'list', 'help'];
const everywhere: readonly Mode[] = ['tree', 'list', 'help'];

export const keymap: readonly Binding[] = [
	{
		command: 'cursor.up',
		keys: [{key: 'upArrow'}, {input: 'k'}],
		modes: moving,
		label: '↑ k',
		asciiLabel: 'up k',
		description: 'move up',
		section: 'Move',
	},
	{
		command: 'cursor.down',
		keys: [{key: 'downArrow'}, {input: 'j'}],
		modes: moving,
		label: '↓ j',
		asciiLabel: 'down j',
		description: 'move down',
		section: 'Move',
		hint: {label: '↑↓', asciiLabel: 'j/k', text: 'move'},
	},
	{
		command: 'cursor.top',
		keys: [{input: 'g'}, {key: 'home'}],
		modes: moving,
		label: 'g home',
		description: 'go to the top',
		section: 'Move',
	},
	{
		command: 'cursor.bottom',
		keys: [{input: 'G'}, {key: 'end'}],
		modes: moving,
		label: 'G end',
		description: 'go to the bottom',
		section: 'Move',
	},
	{command: 'cursor.pageUp', keys: [{key: 'pageUp'}], modes: moving, label: 'PgUp', description: 'page up', section: 'Move'},
	{command: 'cursor.pageDown', keys: [{key: 'pageDown'}], modes: moving, label: 'PgDn', description: 'page down', section: 'Move'},
	{
		command: 'fold.collapse',
		keys: [{key: 'leftArrow'}, {input: 'h'}],
		modes: views,
		label: '← h',
		asciiLabel: 'left h',
		description: 'collapse, or go to the parent',
		section: 'Trees (list and full screen)',
	},
	{
		command: 'fold.expand',
		keys: [{key: 'rightArrow'}, {input: 'l'}],
		modes: views,
		label: '→ l',
		asciiLabel: 'right l',
		description: 'expand',
		section: 'Trees (list and full screen)',
		hint: {label: '←→', asciiLabel: 'h/l', text: 'fold'},
	},
	{
		command: 'replay.pause',
		keys: [{input: ' '}],
		modes: views,
		label: 'space',
		description: 'pause / play the replay',
		section: 'Replay',
		only: 'replay',
		hint: {label: 'space', text: 'pause', when: 'replay'},
	},
	{
		command: 'replay.previous',
		keys: [{input: '['}],
		modes: views,
		label: '[',
		description: 'previous transition',
		section: 'Replay',
		only: 'replay',
	},
	{
		command: 'replay.next',
		keys: [{input: ']'}],
		modes: views,
		label: ']',
		description: 'next transition',
		section: 'Replay',
		only: 'replay',
		hint: {label: '[ ]', text: 'transitions', when: 'replay'},
	},
	{
		command: 'fold.toggle',
		keys: [{input: ' '}],
		modes: views,
		label: 'space',
		description: 'collapse / expand',
		section: 'Trees (list and full screen)',
	},
	// In the list, enter opens the object full screen instead.
	{
		command: 'fold.toggle',
		keys: [{key: 'return'}],
		modes: ['tree'],
		label: '⏎',
		asciiLabel: 'enter',
		description: 'collapse / expand',
		section: 'Trees (list and full screen)',
	},
	{
		command: 'fold.all',
		keys: [{input: 'x'}],
		modes: views,
		label: 'x',
		description: 'expand / collapse all',
		section: 'Trees (list and full screen)',
		hint: {label: 'x', text: 'all'},
	},
	{
		command: 'list.open',
		keys: [{key: 'return'}],
		modes: ['list'],
		label: '⏎',
		asciiLabel: 'enter',
		description: 'open full screen',
		section: 'List',
		hint: {label: '⏎', asciiLabel: 'enter', text: 'open'},
	},
	{
		command: 'filter.start',
		keys: [{input: '/'}],
		modes: ['list'],
		label: '/',
		description: 'filter by name',
		section: 'List',
		hint: {label: '/', text: 'filter'},
	},
	{
		command: 'failing.toggle',
		keys: [{input: 'f'}],
		modes: ['list'],
		label: 'f',
		description: 'failing only',
		section: 'List',
		hint: {label: 'f', text: 'failing only'},
	},
	{
		command: 'filter.commit',
		keys: [{key: 'return'}],
		modes: ['filter'],
		label: '⏎',
		asciiLabel: 'enter',
		description: 'keep the filter',
		section: 'Filter prompt',
	},
	{
		command: 'filter.cancel',
		keys: [{key: 'escape'}],
		modes: ['filter'],
		label: 'esc',
		description: 'clear the filter',
		section: 'Filter prompt',
	},
	{
		command: 'filter.erase',
		keys: [{key: 'backspace'}, {key: 'delete'}],
		modes: ['filter'],
		label: '⌫',
		asciiLabel: 'backspace',
		description: 'erase a character',
		section: 'Filter prompt',
	},
	{
		command: 'events.toggle',
		keys: [{input: 'e'}],
		modes: views,
		label: 'e',
		description: 'show / hide events',
		section: 'Panes',
		hint: {label: 'e', text: 'events'},
	},
	{
		command: 'timeout.extend',
		keys: [{input: '+'}, {input: '='}],
		modes: everywhere,
		label: '+',
		description: 'wait longer (extend the timeout)',
		section: 'Timeout',
		hint: {label: '+', text: 'extend', when: 'canExtend'},
	},
	{
		command: 'timeout.retract',
		keys: [{input: '-'}],
		modes: everywhere,
		label: '-',
		description: 'take back an extension',
		section: 'Timeout',
	},
	{
		command: 'copy.tree',
		keys: [{input: 'y'}],
		modes: views,
		label: 'y',
		description: 'copy the next command, else the tree (OSC 52)',
		section: 'Share',
	},
	{command: 'copy.json', keys: [{input: 'Y'}], modes: views, label: 'Y', description: 'copy the -o json of the object', section: 'Share'},
	{
		command: 'snapshot.save',
		keys: [{input: 's'}],
		modes: views,
		label: 's',
		description: 'save tree + JSON to ./planwatch-*.txt|json',
		section: 'Share',
	},
	{
		command: 'notify.toggle',
		keys: [{input: 'n'}],
		modes: everywhere,
		label: 'n',
		description: 'notifications on / off',
		section: 'Share',
	},
	{
		command: 'help.toggle',
		keys: [{input: '?'}],
		modes: everywhere,
		label: '?',
		description: 'show / hide this help',
		section: 'Panes',
		hint: {label: '?', text: 'help'},
	},
	{
		command: 'back',
		keys: [{key: 'escape'}],
		modes: everywhere,
		label: 'esc',
		description: 'close, go back, or quit',
		section: 'Quit',
		hint: {label: 'esc', text: 'back', when: 'canGoBack'},
	},
	{
		command: 'quit',
		keys: [{input: 'q'}],
		modes: everywhere,
		label: 'q',
		description: 'quit',
		section: 'Quit',
		hint: {label: 'q', text: 'quit'},
	},
	{
		command: 'quit',
		keys: [{input: 'c', ctrl: true}],
		modes: ['tree', 'list', 'help', 'filter'],
		label: 'ctrl+c',
		description: 'quit',
		section: 'Quit',
	},
];

function matches(spec: KeySpec, input: string, key: Partial<Key>): boolean {
	if ('key' in spec) {
		return key[spec.key] === true;
	}

	return input === spec.input && Boolean(key.ctrl) === Boolean(spec.ctrl);
}

/** The command bound to a key in a mode, if any. */
export function commandFor(mode: Mode, input: string, key: Partial<Key>, context: KeyContext = {}): Command | undefined {
	return keymap.find(b => b.modes.includes(mode) && (!b.only || context[b.only]) && b.keys.some(k => matches(k, input, key)))?.command;
}

/** Footer hints of a mode, in table order. */
export function hintsFor(mode: Mode, context: HintContext): Array<NonNullable<Binding['hint']>> {
	return keymap.flatMap(b => (b.hint && b.modes.includes(mode) && (!b.hint.when || context[b.hint.when]) ? [b.hint] : []));
}
