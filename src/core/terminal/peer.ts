// Which process is at the other end of the channel, as the kernel tells it (Linux), never as the client
// says: the inode of the client's socket from `ss` (iproute2, which asks the kernel through sock_diag),
// then the processes holding a descriptor of that socket (`/proc/<pid>/fd/* → socket:[inode]`). Pure: the
// caller reads the system.

/** The inode in a descriptor's link (`socket:[12345]`), or undefined for anything else. */
export function socketInode(link: string): number | undefined {
	const match = /^socket:\[(\d{1,15})\]$/.exec(link);
	return match ? Number(match[1]) : undefined;
}

/**
 * From `ss -x -n -H` (one socket a line: netid, state, queues, local address and inode, peer address and
 * inode), the peer inode of our socket: the line whose local address is `path` and local inode `inode`.
 * The peer's address (the client's bound name, if any) may hold anything, spaces included, so the peer
 * inode is read as the line's last field, and only a line that names our path and inode is read.
 */
export function peerInodeOf(ssOutput: string, path: string, inode: number): number | undefined {
	const ours = ` ${path.split(/\s+/).join(' ')} ${inode} `;
	for (const line of ssOutput.split('\n')) {
		const fields = line.trim().split(/\s+/);
		if (fields[0] !== 'u_str' || !` ${fields.slice(4).join(' ')} `.startsWith(ours)) continue;
		const peer = fields.at(-1)!;
		return /^[1-9]\d{0,14}$/.test(peer) ? Number(peer) : undefined;
	}
	return undefined;
}

/** The one process holding the peer's socket, or undefined when none or several do (the system does not say which asks). */
export function onlyHolder(holders: Iterable<number>): number | undefined {
	const distinct = new Set(holders);
	return distinct.size === 1 ? [...distinct][0] : undefined;
}
