"""What deletes: ForgetEntity, ForgetMessages and retention."""
