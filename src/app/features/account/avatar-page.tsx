import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import Cropper, { type Area } from 'react-easy-crop';
import 'react-easy-crop/react-easy-crop.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { SubmitButton } from '../../components/forms/submit-button';
import { FormAlert } from '../../components/forms/form-alert';
import { useIntentKey } from '../../lib/intent-key';
import { useOnline } from '../../lib/online';
import { updateLoginInfo } from '../../lib/storage';
import { wireLang } from '../../lib/i18n';
import { refreshUserInfo, useUserInfo } from '../../lib/user-info';
import { errorMessage } from '../../../shared/errors';
import { AccountPage } from './account-page';
import { cropToBlob, loadImage, uploadAvatar, type AvatarUpload } from './avatar-upload';
import './avatar.css';

// /pages/profile/cropper: the profile photo. Take a photo or pick a file, frame a square (drag, pinch or
// the arrow keys; zoom; rotate in quarter turns), and upload it: the browser cuts it to 512x512, the server
// checks and re-encodes it (docs/decisions/0007-avatar.md). The upload shows its progress and can be cancelled.
// Offline, the page says the upload needs a connection.

export function AvatarPage() {
  const { t } = useLingui();
  return (
    <AccountPage title={t`Profile photo`}>
      <AvatarEditor />
    </AccountPage>
  );
}

interface Picked {
  url: string;
  img: HTMLImageElement;
}

function AvatarEditor() {
  const { t } = useLingui();
  const online = useOnline();
  const navigate = useNavigate();
  const { info } = useUserInfo();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const area = useRef<Area | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const job = useRef<AvatarUpload | null>(null);
  const { keyFor, settle } = useIntentKey();

  // Free the picture's object URL when it is replaced or the page closes; stop an upload under way.
  useEffect(
    () => () => {
      if (picked) URL.revokeObjectURL(picked.url);
    },
    [picked],
  );
  useEffect(() => () => job.current?.abort(), []);

  const onFile = async (e: React.ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file may be picked again
    if (!file) return;
    setError('');
    setNote('');
    const url = URL.createObjectURL(file);
    const img = file.type.startsWith('image/') || file.type === '' ? await loadImage(url) : null;
    if (!img) {
      URL.revokeObjectURL(url);
      setError(errorMessage('avatar_not_image', wireLang()));
      return;
    }
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setRotation(0);
    area.current = null;
    setPicked({ url, img });
  };

  const onCropComplete = useCallback((_: Area, pixels: Area) => {
    area.current = pixels;
  }, []);

  const upload = async () => {
    if (!picked || !area.current || job.current) return;
    setError('');
    setNote('');
    const blob = await cropToBlob(picked.img, area.current, rotation);
    if (!blob) {
      setError(errorMessage('avatar_unreadable', wireLang()));
      return;
    }
    const key = keyFor({ url: picked.url, area: area.current, rotation });
    setProgress(0);
    const current = uploadAvatar(blob, key, setProgress);
    job.current = current;
    const res = await current.done;
    job.current = null;
    setProgress(null);
    if (res === 'aborted') {
      setNote(t`Upload cancelled. Your profile photo has not changed.`);
      return;
    }
    settle(res.code);
    if (res.code !== 0) {
      setError(res.msg);
      return;
    }
    updateLoginInfo({ avatar: res.avatar });
    await refreshUserInfo();
    showToast(t`Profile photo updated.`, 'success');
    void navigate({ to: '/pages/profile/index' });
  };

  const uploading = progress !== null;
  const pct = Math.round((progress ?? 0) * 100);

  return (
    <div className="section avatar-editor">
      {!online && (
        <p className="notice notice--warn" role="status" data-testid="avatar-offline">
          <Trans>You are offline. Changing your profile photo needs a connection.</Trans>
        </p>
      )}

      {picked ? (
        <>
          <div className="avatar-crop" data-testid="avatar-cropper">
            <Cropper
              image={picked.url}
              crop={crop}
              zoom={zoom}
              rotation={rotation}
              aspect={1}
              cropShape="round"
              showGrid={false}
              keyboardStep={10}
              maxZoom={4}
              disableAutomaticStylesInjection
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={onCropComplete}
              mediaProps={{ alt: t`The picture you chose` }}
              cropperProps={{ 'aria-label': t`Crop area: drag or use the arrow keys to move the picture` }}
            />
          </div>
          <p className="muted avatar-hint">
            <Trans>Drag or pinch to frame your face. On a keyboard, focus the picture and use the arrow keys.</Trans>
          </p>
          <div className="avatar-tools">
            <label className="avatar-zoom">
              <span className="field__label">
                <Trans>Zoom</Trans>
              </span>
              <input type="range" min={1} max={4} step={0.05} value={zoom} onChange={(e) => setZoom(Number(e.target.value))} disabled={uploading} data-testid="avatar-zoom" />
            </label>
            <button type="button" className="btn btn--ghost avatar-rotate" onClick={() => setRotation((r) => (r + 270) % 360)} disabled={uploading} aria-label={t`Rotate left`} title={t`Rotate left`}>
              <span aria-hidden="true">↺</span>
            </button>
            <button
              type="button"
              className="btn btn--ghost avatar-rotate"
              onClick={() => setRotation((r) => (r + 90) % 360)}
              disabled={uploading}
              aria-label={t`Rotate right`}
              title={t`Rotate right`}
              data-testid="avatar-rotate"
            >
              <span aria-hidden="true">↻</span>
            </button>
          </div>
        </>
      ) : (
        <div className="avatar-current">
          {info?.avatar ? (
            <img className="avatar-current__img" src={info.avatar} alt={t`Your current profile photo`} width={160} height={160} data-testid="avatar-current" />
          ) : (
            <span className="avatar-current__img avatar-current__img--none" aria-hidden="true">
              ?
            </span>
          )}
          <p className="muted">
            <Trans>Take a photo or choose a picture. You will frame a square of it before it is uploaded.</Trans>
          </p>
        </div>
      )}

      <FormAlert id="avatar-error" message={error} />
      {note && (
        <p className="notice avatar-note" role="status" data-testid="avatar-note">
          {note}
        </p>
      )}

      {uploading ? (
        <div className="avatar-progress" data-testid="avatar-progress">
          <div className="avatar-progress__label">
            <span>
              <Trans>Uploading…</Trans>
            </span>
            <span>{pct}%</span>
          </div>
          <div className="avatar-progress__track" role="progressbar" aria-label={t`Upload progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
            <div className="avatar-progress__bar" style={{ width: `${pct}%` }} />
          </div>
          <button type="button" className="btn btn--ghost btn--block" onClick={() => job.current?.abort()} data-testid="avatar-cancel">
            <Trans>Cancel upload</Trans>
          </button>
        </div>
      ) : (
        <div className="avatar-actions">
          {picked && (
            <SubmitButton onClick={() => void upload()} testId="avatar-upload">
              <Trans>Use this photo</Trans>
            </SubmitButton>
          )}
          <div className="avatar-pick">
            <label className="btn btn--ghost avatar-pick__btn">
              <input className="sr-only" type="file" accept="image/*" capture="user" onChange={(e) => void onFile(e)} data-testid="avatar-camera" />
              <Trans>Take a photo</Trans>
            </label>
            <label className="btn btn--ghost avatar-pick__btn">
              <input className="sr-only" type="file" accept="image/jpeg,image/png,image/webp,image/*" onChange={(e) => void onFile(e)} data-testid="avatar-file" />
              {picked ? <Trans>Choose another</Trans> : <Trans>Choose a picture</Trans>}
            </label>
          </div>
        </div>
      )}
    </div>
  );
}
