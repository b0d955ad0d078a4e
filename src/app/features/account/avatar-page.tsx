import type { ChangeEvent } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { FormAlert } from '../../components/forms/form-alert';
import { useOnline } from '../../lib/online';
import { wireLang } from '../../lib/i18n';
import { useUserInfo } from '../../lib/user-info';
import { errorMessage } from '../../../shared/errors';
import { AccountPage } from './account-page';
import { AvatarActions, CropArea, CurrentAvatar, UploadProgress } from './avatar-parts';
import { useAvatarUpload, usePicture } from './use-avatar-editor';
import './avatar.css';

// /pages/profile/cropper: the profile photo. Take a photo or pick a file, frame a square (drag, pinch or
// the arrow keys; zoom; rotate in quarter turns), and upload it: the browser cuts it to 512x512, the server
// checks and re-encodes it (docs/decisions/0007-avatar.md). The upload shows its progress and can be
// cancelled. Offline, the page says the upload needs a connection.

export function AvatarPage() {
  const { t } = useLingui();
  return (
    <AccountPage title={t`Profile photo`}>
      <AvatarEditor />
    </AccountPage>
  );
}

function AvatarEditor() {
  const online = useOnline();
  const { info } = useUserInfo();
  const picture = usePicture();
  const upload = useAvatarUpload();
  const uploading = upload.progress !== null;

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file may be picked again
    if (!file) return;
    upload.clear();
    if (!(await picture.choose(file))) upload.setError(errorMessage('avatar_not_image', wireLang()));
  };

  return (
    <div className="section avatar-editor">
      {!online && (
        <p className="notice notice--warn" role="status" data-testid="avatar-offline">
          <Trans>You are offline. Changing your profile photo needs a connection.</Trans>
        </p>
      )}
      {picture.picked ? <CropArea picture={picture} disabled={uploading} /> : <CurrentAvatar src={info?.avatar} name={info ? info.realname || info.email : ''} />}
      <FormAlert id="avatar-error" message={upload.error} />
      {upload.note && (
        <p className="notice avatar-note" role="status" data-testid="avatar-note">
          {upload.note}
        </p>
      )}
      {uploading ? (
        <UploadProgress progress={upload.progress ?? 0} onCancel={upload.cancel} />
      ) : (
        <AvatarActions picked={picture.picked !== null} onUpload={() => void upload.upload(picture)} onFile={(e) => void onFile(e)} />
      )}
    </div>
  );
}
