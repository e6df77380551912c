import {Text} from 'ink';
import type {NodeState} from '../../model/plan-tree.js';
import {roleOf} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {Spinner} from './spinner.js';

/**
 * The icon of a state in its role's colour; running nodes spin (Unicode mode only) unless `spin` is false (where
 * the spinner is drawn elsewhere on the line, or the line is not a node).
 */
export function StatusIcon({state, spin = true}: {readonly state: NodeState; readonly spin?: boolean}) {
	const theme = useTheme();
	const style = theme.style(roleOf(state));
	return <Text {...style}>{spin && state === 'running' && theme.spinner ? <Spinner /> : theme.icon(state)}</Text>;
}
