import {useMemo, useRef} from 'react';
import type {PlanObject} from '../../model/plan-tree.js';
import {buildTreeList, indexOfRow, type TreeList} from '../tree-list.js';
import type {ViewState} from '../view-state.js';

const noList: TreeList = {objects: [], blocks: [], total: 0, walked: 0};

/**
 * The list as a tree (objects and their expanded trees) and the cursor's row in it. Rebuilt when the objects, the
 * fold choices or the screen's height change, never per tick; off the list screen, not at all.
 */
export function useTreeList(
	objects: readonly PlanObject[],
	view: ViewState,
	budget: number,
	shown: boolean,
): {readonly list: TreeList; readonly cursor: number} {
	const list = useMemo(
		() => (shown ? buildTreeList(objects, {expand: view.listExpand, folds: view.folds, budget}) : noList),
		[shown, objects, view.listExpand, view.folds, budget],
	);
	// The cursor's object is at the same index frame after frame: tried first, no search through thousands.
	const hint = useRef(0);
	const cursor = view.listCursor === undefined ? 0 : Math.max(0, indexOfRow(list, view.listCursor, view.listNode, hint));
	return {list, cursor};
}
