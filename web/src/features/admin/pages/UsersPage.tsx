import { formatDateTime, formatNumber, type AdminUser } from '@afrofx/shared';
import { useState } from 'react';
import { Button } from '../../../components/Button';
import { Card } from '../../../components/Card';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Modal } from '../../../components/Modal';
import { PageHeader } from '../../../components/PageHeader';
import { Pill } from '../../../components/Pill';
import { PagedTable, pagedState } from '../../../components/PagedTable';
import type { Column } from '../../../components/Table';
import { showToast } from '../../../lib/toast';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { statusAction, superCustomerAction, type RowAction } from '../account-actions';
import {
  useChangeAccountMutation,
  useCreateUserMutation,
  useFetchUsersInfiniteQuery,
  type AccountAction,
} from '../admin-api';
import { AddAdminForm } from '../components/AddAdminForm';
import { LiftSignInLock } from '../components/LiftSignInLock';

const statusPill = (user: AdminUser) =>
  user.status === 'active' ? <Pill tone="green">Active</Pill> : <Pill tone="red">Disabled</Pill>;

export function UsersPage() {
  useDocumentTitle('Users');
  const users = useFetchUsersInfiniteQuery();
  const list = pagedState(users);
  const [createUser, createState] = useCreateUserMutation();
  const [changeAccount] = useChangeAccountMutation();
  const [adding, setAdding] = useState(false);
  const [toDisable, setToDisable] = useState<AdminUser | null>(null);
  // SPEC §4: loading shows only on the chosen row's chosen action.
  const [pending, setPending] = useState<{ id: string; action: AccountAction } | null>(null);
  const { total } = list;

  const change = async (user: AdminUser, action: AccountAction) => {
    setPending({ id: user._id, action });
    const result = await changeAccount({ id: user._id, action });
    if (result.data) {
      showToast(result.data.message, 'success');
      await users.refetch();
    }
    setPending(null);
  };

  const onAction = (user: AdminUser, { action }: RowAction) => {
    if (action === 'disable_account') setToDisable(user);
    else void change(user, action);
  };

  const onCreate = async (admin: { email: string; password: string }) => {
    const result = await createUser(admin);
    if (!result.data) return;
    showToast(result.data.message, 'success');
    setAdding(false);
    void users.refetch();
  };

  const actionButton = (user: AdminUser, rowAction: RowAction, variant: 'secondary' | 'ghost') => (
    <Button
      variant={variant}
      size="sm"
      isLoading={pending?.id === user._id && pending.action === rowAction.action}
      disabled={pending?.id === user._id && pending.action !== rowAction.action}
      onClick={() => onAction(user, rowAction)}
    >
      {rowAction.label}
    </Button>
  );

  const columns: ReadonlyArray<Column<AdminUser>> = [
    {
      key: 'email',
      header: 'Email',
      cardTitle: true,
      cell: (user) => (
        <span className="flex flex-wrap items-center gap-2 whitespace-normal">
          <span className="font-medium break-all text-slate-900">{user.email}</span>
          {user.role === 'admin' ? <Pill tone="blue">Admin</Pill> : null}
          {user.state === 'premium_customer' ? <Pill tone="gold">Super customer</Pill> : null}
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: statusPill,
    },
    {
      key: 'created',
      header: 'Created',
      cell: (user) => <span className="text-slate-500 tabular-nums">{formatDateTime(user.createdAt)}</span>,
    },
    {
      key: 'actions',
      header: <span className="sr-only">Actions</span>,
      align: 'right',
      cell: (user) => (
        <span className="flex flex-col items-end gap-2 lg:flex-row lg:justify-end">
          {actionButton(user, statusAction(user), 'secondary')}
          {user.role === 'developer' ? actionButton(user, superCustomerAction(user), 'ghost') : null}
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Users"
        description={
          total === undefined
            ? 'Admins and developers, newest first.'
            : `${formatNumber(total, 0)} ${total === 1 ? 'account' : 'accounts'}, admins and developers, newest first.`
        }
        actions={
          <>
            <LiftSignInLock />
            <Button onClick={() => setAdding(true)}>Add Admin</Button>
          </>
        }
      />
      <Card className="overflow-hidden">
        <PagedTable
          {...list}
          caption="Users"
          columns={columns}
          rowKey={(user) => user._id}
          loadingLabel="Loading users"
          emptyMessage="Users is empty."
        />
      </Card>
      <Modal
        open={adding}
        title="Add Admin"
        description="The new admin signs in at /admin/login with this e-mail and password."
        onClose={() => setAdding(false)}
        size="sm"
      >
        <AddAdminForm
          onSubmit={onCreate}
          isSubmitting={createState.isLoading}
          onCancel={() => setAdding(false)}
        />
      </Modal>
      <ConfirmDialog
        open={toDisable !== null}
        title="Disable this account?"
        message={
          toDisable
            ? `${toDisable.email} will be signed out, and its API keys stop working until the account is enabled again.`
            : ''
        }
        confirmLabel="Disable Account"
        tone="danger"
        isLoading={pending?.action === 'disable_account'}
        onConfirm={() => {
          const user = toDisable!;
          void change(user, 'disable_account').then(() => setToDisable(null));
        }}
        onCancel={() => setToDisable(null)}
      />
    </>
  );
}
