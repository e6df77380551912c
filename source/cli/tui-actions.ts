/**
 * The TUI's `y`, `Y`, `s` and `n`: copy the selected object's plain tree or JSON to the clipboard (OSC 52), save
 * both to files, turn notifications on or off. Texts are the `-o plain` and `-o json` renderings of the object
 * as it is now; the copied tree is a Markdown code block, so a chat keeps its columns.
 */
import path from 'node:path';
import {describeError} from './describe-error.js';
import {objectKey} from '../model/plan-tree.js';
import {explainerOf, toJsonObject} from '../render/json.js';
import {renderObjectPlain} from '../render/plain.js';
import type {Clock} from '../core/clock.js';
import type {StoreSnapshot} from '../state/store.js';
import type {ActionCommand, ActionOutcome, Expectations, TuiActions} from '../ui/actions.js';
import type {Notifier} from './notifier.js';
import {saveSnapshot, snapshotBaseName} from './snapshot-file.js';
import type {TerminalSignals} from './terminal-signals.js';

export type TuiActionsOptions = {
	readonly store: {getSnapshot(): StoreSnapshot};
	readonly clock: Clock;
	readonly ascii: boolean;
	readonly signals: TerminalSignals;
	readonly notifier: Notifier;
	/** Where `s` writes (the working directory). */
	readonly dir: string;
	readonly expectations?: Expectations;
	readonly timeZone?: string;
};

export function createTuiActions(options: TuiActionsOptions): TuiActions {
	const {store, clock, signals} = options;
	const texts = (key: string): {plain: string; json: string; label: string; namespace: string; name: string} | undefined => {
		const snapshot = store.getSnapshot();
		const object = snapshot.objects.find(o => objectKey(o) === key);
		if (!object) {
			return undefined;
		}

		const now = clock.now();
		const plain = renderObjectPlain(object, snapshot.timings.get(key), {
			now,
			ascii: options.ascii,
			color: false,
			timeZone: options.timeZone,
		}).join('\n') + '\n';
		const eta = options.expectations && {expectations: options.expectations, timings: snapshot.timings, now};
		const document = toJsonObject(object, snapshot.events.get(key) ?? [], eta, explainerOf(snapshot, object));
		const json = JSON.stringify(document, undefined, 2) + '\n';
		return {plain, json, label: `${object.namespace}/${object.name}`, namespace: object.namespace, name: object.name};
	};

	const copied = (result: ReturnType<TerminalSignals['copy']>, what: string): ActionOutcome => {
		switch (result) {
			case 'copied': {
				// OSC 52 is never acknowledged: whether it landed (tmux drops it by default) cannot be known.
				return {ok: true, message: `sent ${what} to the terminal's clipboard`};
			}

			case 'too-large': {
				return {ok: false, message: `${what} is too large for the clipboard: s saves it to a file`};
			}

			case 'not-a-terminal': {
				return {ok: false, message: 'copying needs a terminal on stdout'};
			}
		}
	};

	return {
		run(command: ActionCommand, key: string | undefined, next?: string): ActionOutcome {
			if (command === 'notify.toggle') {
				return {ok: options.notifier.available, message: options.notifier.toggle()};
			}

			if (command === 'copy.tree' && next !== undefined) {
				return copied(signals.copy(`${next}\n`), 'the next command');
			}

			const t = key === undefined ? undefined : texts(key);
			if (!t) {
				return {ok: false, message: 'no object selected'};
			}

			switch (command) {
				case 'copy.tree': {
					return copied(signals.copy(markdownCodeBlock(t.plain)), `the tree of ${t.label}`);
				}

				case 'copy.json': {
					return copied(signals.copy(t.json), `the JSON of ${t.label}`);
				}

				case 'snapshot.save': {
					try {
						const saved = saveSnapshot(options.dir, snapshotBaseName(t, clock.now()), t.plain, t.json);
						const shown = (file: string): string => `.${path.sep}${path.relative(options.dir, file)}`;
						return {ok: true, message: `saved ${shown(saved.text)} and .json`};
					} catch (error) {
						return {ok: false, message: `could not save: ${describeError(error).message}`};
					}
				}
			}
		},
	};
}

/**
 * `text` as a fenced Markdown code block, so chat and issue trackers keep its alignment. The fence is longer than
 * any run of backticks in it (CommonMark), so an event message holding ``` cannot close it early.
 */
export function markdownCodeBlock(text: string): string {
	const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map(m => m[0].length));
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `${fence}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}\n`;
}
