/**
 * What the TUI asks of the outside world, as an interface the CLI implements (source/cli/tui-actions.ts): the UI
 * itself does no I/O. Every call returns at once with the footer's one line.
 */
import type {Expectation} from '../model/eta.js';
import type {PlanObject} from '../model/plan-tree.js';

export type ActionCommand = 'copy.tree' | 'copy.json' | 'snapshot.save' | 'notify.toggle';

export type ActionOutcome = {readonly ok: boolean; readonly message: string};

export type TuiActions = {
	/**
	 * Run a command on the object with this key (`Kind/namespace/name`; undefined: none selected). `next`: the
	 * selected node's next command, which `copy.tree` copies instead of the tree.
	 */
	run(command: ActionCommand, objectKey: string | undefined, next?: string): ActionOutcome;
};

/** Past runs per node of an object (the ETA history, in memory). */
export type Expectations = (object: PlanObject) => ReadonlyMap<string, Expectation>;
