/**
 * TRAINER_IDS: `<interface_id>:<user_id>` entries. Only these senders may run sensitive operations
 * (the attention commands) once the list is set; an empty list leaves them open to everyone, so a
 * fresh installation is usable before an operator is named.
 */
export function isTrainer(trainerIds: readonly string[], interfaceId: string, userId: string): boolean {
  return trainerIds.includes(`${interfaceId}:${userId}`);
}

export function mayOperate(trainerIds: readonly string[], interfaceId: string, userId: string): boolean {
  return trainerIds.length === 0 || isTrainer(trainerIds, interfaceId, userId);
}
