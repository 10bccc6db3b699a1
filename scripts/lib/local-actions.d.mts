/** Findings of a workflow's steps that use an action of this repository, checked against its action.yml. */
export function checkLocalActions(root: string, text: string): { message: string }[];
