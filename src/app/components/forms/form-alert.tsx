import './forms.css';

/** The server's answer to a failed submit, under the form (announced by screen readers when it appears). */
export function FormAlert({ id, message }: { id: string; message: string }) {
  return (
    <div id={id} className="form-alert" role="alert" hidden={!message}>
      {message}
    </div>
  );
}
