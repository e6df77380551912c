import type {ActionVerdictInput} from '../../source/model/adapt-kanister-action-set.js';

/** What actionVerdict reads about one Kanister action: a running `backup` with no phases yet, then `over`. */
export function actionVerdictInput(over: Partial<ActionVerdictInput>): ActionVerdictInput {
	return {
		name: 'backup',
		deferLabel: 'deferPhase cleanup',
		core: [],
		deferNode: undefined,
		deferRunning: false,
		never: false,
		phasesFromStatus: true,
		percent: undefined,
		context: {hasStatus: true, objectState: 'running', failedWithoutNode: false, error: ''},
		...over,
	};
}
