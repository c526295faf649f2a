// "Open the Share dialog", from elsewhere than its header button (the people
// list, where it sits on a phone's crowded header); `seq` says "again".
export const shareRequest = $state({ seq: 0 });

export function openShare(): void {
  shareRequest.seq++;
}
